// Host names and addresses as tcp and dns monitors take them: no scheme, no port, no path.
import { badRequest } from "../../http/http-error";
import { ipOf } from "../../net/host-address";
import { parseHost } from "./address";

export const HOST_MESSAGE = "Host must be a host name or an IP address, without scheme, port or path (db.example.com, 10.0.0.5, ::1)";

/** "DB.Example.com." → "db.example.com", "[::1]" → "::1"; throws INVALID_HOST (400) for anything else. */
export function normaliseHost(raw: string): string {
  const host = parseHost(raw);
  if (host === null) throw badRequest("INVALID_HOST", HOST_MESSAGE);
  return host;
}

/**
 * A host Vigil connects to (tcp, ping): normaliseHost, with an address in another spelling in its usual form
 * ("127.1", "2130706433" → "127.0.0.1"), so that the monitor shows, and the address policy judges, what is reached.
 * A DNS monitor's name is only looked up, so it keeps normaliseHost.
 */
export function normaliseTargetHost(raw: string): string {
  const host = normaliseHost(raw);
  return ipOf(host) ?? host;
}
