// Host names and addresses as tcp and dns monitors take them: no scheme, no port, no path.
import { isIP } from "node:net";
import { badRequest } from "../../http/errors";

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/i;

export const HOST_MESSAGE = "Host must be a host name or an IP address, without scheme, port or path (db.example.com, 10.0.0.5, ::1)";

/** "DB.Example.com." → "db.example.com", "[::1]" → "::1"; throws INVALID_HOST (400) for anything else. */
export function normaliseHost(raw: string): string {
  let host = raw.trim();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (isIP(host)) return host.toLowerCase();
  host = host.replace(/\.$/, "").toLowerCase();
  // Underscores are legal in DNS names (_dmarc.example.com TXT) though not in host names: accepted for both.
  const labels = host.split(".");
  if (!host || host.length > 253 || !labels.every((l) => LABEL.test(l))) throw badRequest("INVALID_HOST", HOST_MESSAGE);
  return host;
}
