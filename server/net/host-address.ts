// The one reading of "is this host an IP address, and which": every check type, the agents, channels and the form
// use it, so that no spelling of a forbidden address gets past one of them. No imports: the monitor form runs it too.
//
// The system resolver (inet_aton) and the URL parser take an IPv4 address in more spellings than the dotted quad:
// one number (2852039166), hex or octal parts (0xa9fea9fe, 0177.0.0.1), fewer parts (127.1), a trailing dot; IPv6
// in many spellings, IPv4-mapped ones (::ffff:169.254.169.254) among them. The WHATWG URL parser's host parsing
// implements exactly these rules, so it is the parser used here.

/** A host written without brackets, port or path: only these characters can be an IPv4 address in any spelling. */
const IPV4_SPELLING = /^[0-9a-fx.]+$/i;
const IPV6_SPELLING = /^[0-9a-f:.]+$/i;

/**
 * The IP address a host stands for when it is written as one, in its usual form ("0x7f.1" → "127.0.0.1",
 * "[::FFFF:127.0.0.1]" → "127.0.0.1", "[FE80::0:1]" → "fe80::1"), or null for a host name ("db1", "1e100.net") or something that is neither.
 */
export function ipOf(host: string): string | null {
  let text = host.trim();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  if (text.includes(":")) {
    if (!IPV6_SPELLING.test(text)) return null;
    let parsed: string;
    try {
      parsed = new URL(`http://[${text}]/`).hostname.slice(1, -1);
    } catch {
      return null;
    }
    // An IPv4-mapped address reaches the IPv4 address it carries: shown, judged and contacted as that one.
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(parsed);
    if (!mapped) return parsed;
    const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  if (!IPV4_SPELLING.test(text)) return null;
  try {
    const parsed = new URL(`http://${text}/`).hostname;
    // The parser keeps a name a name ("cafe.dead" is one): only its dotted-quad output is an address.
    return /^\d+\.\d+\.\d+\.\d+$/.test(parsed) ? parsed : null;
  } catch {
    return null; // "1.2.3.999", "a.1": not an address, and not a host name the URL parser takes either
  }
}
