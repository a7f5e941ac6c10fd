// The commands a redis check may send: read-only ones only, so a monitor can never change or block the data it watches
// (no SET, DEL, FLUSHALL, CONFIG, KEYS, SCAN, MONITOR, SUBSCRIBE…). The form and the 400 name the allowed ones.
export const READ_COMMANDS = [
  "PING", "ECHO", "GET", "EXISTS", "TYPE", "TTL", "PTTL", "STRLEN", "DBSIZE", "INFO", "TIME", "LASTSAVE", "ROLE",
  "HGET", "HEXISTS", "HLEN", "LLEN", "LINDEX", "SCARD", "SISMEMBER", "ZCARD", "ZSCORE", "XLEN",
] as const;

const ALLOWED = new Set<string>(READ_COMMANDS);

export const COMMAND_MESSAGE = `Command must be a read-only one with its arguments: ${READ_COMMANDS.join(", ")}`;

/** "get  \"my key\" x" → { name: "GET", args: ["my key", "x"] }; null when it is empty, badly quoted or not allowed. */
export function parseCommand(text: string): { name: string; args: string[] } | null {
  const words: string[] = [];
  // A word is a run of non-space characters or a double-quoted string (JSON escapes) for an argument with spaces.
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(text)) !== null) {
    if (m[1] !== undefined) {
      try {
        words.push(JSON.parse(`"${m[1]}"`) as string);
      } catch {
        return null;
      }
    } else words.push(m[2]!);
    end = re.lastIndex;
  }
  if (text.slice(end).trim() !== "" || words.length === 0) return null;
  const name = words[0]!.toUpperCase();
  return ALLOWED.has(name) ? { name, args: words.slice(1) } : null;
}
