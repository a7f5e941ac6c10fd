// The syntax of tcp and dns monitors' hosts and of DNS resolvers, with no runtime dependency: the server's rules
// (host.ts, dns/dns.ts) and the form's checks before sending (ui/pages/monitors/model.ts) are this one code.
import { LIMITS } from "../public";

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/i;

/** 4 or 6 for an IP address, else 0. IPv6 as the URL parser reads it between brackets: no zone id ("%eth0"). */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (IPV4.test(text)) return 4;
  if (!text.includes(":") || !/^[0-9a-f:.]+$/i.test(text)) return 0;
  try {
    new URL(`http://[${text}]/`);
    return 6;
  } catch {
    return 0;
  }
}

/** "DB.Example.com." → "db.example.com", "[::1]" → "::1"; null when it is not a host name or an IP address. */
export function parseHost(raw: string): string | null {
  let host = raw.trim();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (ipVersion(host)) return host.toLowerCase();
  host = host.replace(/\.$/, "").toLowerCase();
  // Underscores are legal in DNS names (_dmarc.example.com TXT) though not in host names: accepted for both.
  if (!host || host.length > LIMITS.hostLength || !host.split(".").every((label) => LABEL.test(label))) return null;
  return host;
}

/** "1.1.1.1", "1.1.1.1:53", "[2606:4700::1111]:53", "::1" → host and port (53 by default); null when not an IP[:port]. */
export function parseResolver(raw: string): { host: string; port: number } | null {
  const text = raw.trim();
  let host = text;
  let port = "53";
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2] ?? port;
    if (ipVersion(host) !== 6) return null;
  } else if (ipVersion(text) === 6) {
    // A bare IPv6 address: its colons are not a port separator ("::1" is port 53).
  } else {
    const m = /^([^:]+)(?::(\d+))?$/.exec(text);
    if (!m || ipVersion(m[1]!) !== 4) return null;
    host = m[1]!;
    port = m[2] ?? port;
  }
  const n = Number(port);
  if (!/^\d{1,5}$/.test(port) || n < 1 || n > 65535) return null;
  return { host, port: n };
}
