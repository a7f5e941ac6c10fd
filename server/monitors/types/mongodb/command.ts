// What a mongodb check may send and where it connects, with no driver (the form can use it too).

// Read-only diagnostics only, so a monitor can never change data (no insert, update, delete, drop, createIndexes…);
// no find/count either: they would need a collection and a filter, which is not what an uptime check asserts.
export const READ_COMMANDS = [
  "ping", "hello", "isMaster", "buildInfo", "serverStatus", "dbStats", "hostInfo", "connectionStatus", "replSetGetStatus",
] as const;

const ALLOWED = new Map<string, string>(READ_COMMANDS.map((c) => [c.toLowerCase(), c]));

export const COMMAND_MESSAGE = `Command must be a JSON object naming a read-only command first: ${READ_COMMANDS.join(", ")} (such as {"ping":1})`;

/** The command document, or null when it is not JSON, not an object, or its first key is not an allowed command. */
export function parseCommand(text: string): Record<string, unknown> | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return null;
  const keys = Object.keys(doc);
  // MongoDB reads the command's name from the first key; "$…" keys are the driver's own (the database, the session).
  if (!keys.length || keys.some((k) => k.startsWith("$"))) return null;
  const name = ALLOWED.get(keys[0]!.toLowerCase());
  // "ismaster" is the server's own spelling of isMaster: both are accepted (the server's names are case-sensitive).
  if (!name || (keys[0] !== name && keys[0] !== "ismaster")) return null;
  return doc as Record<string, unknown>;
}

export interface MongoHosts {
  srv: boolean;
  hosts: { host: string; port: number }[];
}

/**
 * The hosts of a connection string as written ("[::1]" → "::1"), without the credentials; null when it has none or
 * a port is not 1–65535. A +srv string has one name (the driver asks DNS for the hosts behind it).
 */
export function parseHosts(url: string): MongoHosts | null {
  const m = /^mongodb(\+srv)?:\/\/([^/?]*)/i.exec(url.trim());
  if (!m) return null;
  const srv = Boolean(m[1]);
  const authority = m[2]!.slice(m[2]!.lastIndexOf("@") + 1);
  const hosts: MongoHosts["hosts"] = [];
  for (const part of authority.split(",")) {
    const h = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(part);
    if (!h) return null;
    const port = h[3] === undefined ? 27017 : Number(h[3]);
    if (port < 1 || port > 65535 || (srv && h[3] !== undefined)) return null;
    hosts.push({ host: decodeURIComponent(h[1] ?? h[2]!).toLowerCase(), port });
  }
  if (!hosts.length || (srv && hosts.length !== 1)) return null;
  return { srv, hosts };
}
