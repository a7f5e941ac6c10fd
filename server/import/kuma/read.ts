// Reads a Kuma source: a data directory holding kuma.db, a kuma.db file, or Kuma 1.x's JSON backup export. Which
// Kuma made a database is told by its schema — the knex_migrations table of 2.x, the recorded patches of 1.x — and a
// database naming a change this importer does not know is refused rather than guessed at. The database is never
// opened where it lies: it is copied to a temp dir first (a read-only open of a WAL database still creates its -shm
// file, which, owned by another user, could keep Kuma from starting again).
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { badRequest } from "../../http/http-error";
import { KNOWN_KNEX_MIGRATIONS, KNOWN_V1_PATCHES, KNOWN_V1_VERSION } from "./known-schemas";
import type { KumaSource } from "./section";

type Row = Record<string, unknown>;

const notKuma = (message: string) => badRequest("NOT_KUMA", message);

/** A Kuma source as read: the section interface, plus closing what it holds open (the temp copy). */
export type OpenKumaSource = KumaSource & { close(): void };

export async function readKumaSource(path: string): Promise<OpenKumaSource> {
  const given = resolve(path);
  if (!existsSync(given)) throw notKuma(`No such file or directory: ${given}`);
  let file = given;
  if (statSync(given).isDirectory()) {
    file = join(given, "kuma.db");
    if (!existsSync(file)) throw notKuma(`${given} holds no kuma.db: give Uptime Kuma's data directory, its kuma.db, or a Kuma 1.x backup (.json)`);
  }
  const head = readHead(file);
  if (head.startsWith("SQLite format 3\0")) return readDatabase(file);
  if (head.trimStart().startsWith("{")) return readJsonBackup(file);
  throw notKuma(`${file} is neither a Kuma database (kuma.db) nor a Kuma 1.x backup (.json)`);
}

function readHead(file: string): string {
  const bytes = readFileSync(file).subarray(0, 64);
  return new TextDecoder("latin1").decode(bytes);
}

function readDatabase(file: string): OpenKumaSource {
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    throw badRequest(
      "KUMA_STILL_RUNNING",
      `${basename(file)} has changes Kuma has not written into it yet (${basename(wal)} is not empty): Uptime Kuma is still running, or stopped without checkpointing. Stop Uptime Kuma first (docker stop uptime-kuma / systemctl stop uptime-kuma) so it checkpoints its WAL, then try again.`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), "vigil-kuma-"));
  const drop = () => rmSync(dir, { recursive: true, force: true });
  let sqlite: Database;
  try {
    const copy = join(dir, "kuma.db");
    copyFileSync(file, copy);
    sqlite = new Database(copy, { readonly: true });
    sqlite.query("SELECT count(*) FROM sqlite_master").get();
  } catch (e) {
    drop();
    throw notKuma(`${file} cannot be read as a SQLite database (${(e as Error).message})`);
  }
  try {
    const source = sqliteSource(sqlite, file, drop);
    if (!source.has("monitor", "type") || !source.has("heartbeat")) throw notKuma(`${file} is a SQLite database, but not Uptime Kuma's (it has no monitor table)`);
    return source;
  } catch (e) {
    sqlite.close();
    drop();
    throw e;
  }
}

function sqliteSource(sqlite: Database, file: string, drop: () => void): OpenKumaSource {
  const tables = new Set(sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name));
  const columns = new Map<string, Set<string>>();
  const columnsOf = (table: string) => {
    let known = columns.get(table);
    if (!known) {
      known = new Set(tables.has(table) ? sqlite.query<{ name: string }, []>(`PRAGMA table_info("${table.replaceAll('"', '""')}")`).all().map((r) => r.name) : []);
      columns.set(table, known);
    }
    return known;
  };
  const cache = new Map<string, Row[]>();
  const has = (table: string, column?: string) => tables.has(table) && (column === undefined || columnsOf(table).has(column));
  const rows = (table: string): Row[] => {
    if (!tables.has(table)) return [];
    let out = cache.get(table);
    if (!out) {
      out = sqlite.query<Row, []>(`SELECT * FROM "${table.replaceAll('"', '""')}"`).all();
      cache.set(table, out);
    }
    return out;
  };

  const schema = detectSchema(tables, rows, file);
  const label = schema === "2.x" ? `Uptime Kuma 2.x database (${file})` : `Uptime Kuma 1.x database (${file})`;
  return {
    schema,
    label,
    file: basename(file),
    rows,
    has,
    close: () => {
      sqlite.close();
      drop();
    },
  };
}

/** 2.x keeps knex_migrations; 1.x records its patches in settings. Either way, an unknown change is refused. */
function detectSchema(tables: Set<string>, rows: (table: string) => Row[], file: string): "2.x" | "1.23" {
  const newer = (what: string) =>
    badRequest(
      "KUMA_SCHEMA_UNKNOWN",
      `${file} comes from a newer Uptime Kuma than this Vigil knows (${what}). Update Vigil and try again; nothing was imported.`,
    );
  if (tables.has("knex_migrations")) {
    const unknown = rows("knex_migrations").map((r) => String(r.name)).filter((name) => !KNOWN_KNEX_MIGRATIONS.has(name));
    if (unknown.length > 0) throw newer(`unknown migration${unknown.length > 1 ? "s" : ""} ${unknown.slice(0, 3).join(", ")}`);
    return "2.x";
  }
  const setting = (key: string) => rows("setting").find((r) => r.key === key)?.value;
  const version = Number(setting("database_version") ?? 0);
  if (version > KNOWN_V1_VERSION) throw newer(`database_version ${version}`);
  let patches: string[] = [];
  try {
    patches = Object.keys(JSON.parse(String(setting("databasePatchedFiles") ?? "{}")) as Row);
  } catch {
    // An unreadable record of patches: the tables themselves are read as they are.
  }
  const unknown = patches.filter((p) => !KNOWN_V1_PATCHES.has(p));
  if (unknown.length > 0) throw newer(`unknown patch${unknown.length > 1 ? "es" : ""} ${unknown.slice(0, 3).join(", ")}`);
  return "1.23";
}

// ── Kuma 1.x JSON backup ────────────────────────────────────────────────────────────────────────────────────────

/** Kuma 1.x's backup spells the monitor's columns in camelCase (Monitor.toJSON()); these are named otherwise. */
const MONITOR_KEYS: Record<string, string> = { accepted_statuscodes: "accepted_statuscodes_json" };
/** What toJSON() adds that is no column. */
const NOT_COLUMNS = new Set(["notificationIDList", "tags", "pathName", "childrenIDs", "forceInactive", "maintenance", "screenshot", "includeSensitiveData"]);

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A value as the database column holds it: booleans as 0/1, lists and objects as JSON text. */
function columnValue(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return value;
}

function toRow(entry: Row, rename: Record<string, string> = {}): Row {
  const row: Row = {};
  for (const [key, value] of Object.entries(entry)) {
    if (NOT_COLUMNS.has(key)) continue;
    row[rename[key] ?? snake(key)] = columnValue(value);
  }
  return row;
}

function readJsonBackup(file: string): OpenKumaSource {
  let data: Row;
  try {
    data = JSON.parse(readFileSync(file, "utf8")) as Row;
  } catch (e) {
    throw notKuma(`${file} is not valid JSON (${(e as Error).message})`);
  }
  const isList = (v: unknown): v is Row[] => Array.isArray(v) && v.every((x) => x !== null && typeof x === "object");
  if (typeof data.version !== "string" || !isList(data.monitorList) || !isList(data.notificationList)) {
    throw notKuma(`${file} is JSON, but not a Kuma 1.x backup (it needs version, notificationList and monitorList)`);
  }
  if (!data.version.startsWith("1.")) throw badRequest("KUMA_SCHEMA_UNKNOWN", `${file} is a backup of Uptime Kuma ${data.version}: only Kuma 1.x made JSON backups this Vigil knows.`);

  const tables = new Map<string, Row[]>([["monitor", []], ["notification", []]]);
  const put = (table: string, row: Row) => tables.set(table, [...(tables.get(table) ?? []), row]);
  for (const n of data.notificationList) put("notification", toRow(n));
  for (const p of isList(data.proxyList) ? data.proxyList : []) put("proxy", toRow(p));
  const tagIds = new Set<number>();
  for (const m of data.monitorList) {
    put("monitor", toRow(m, MONITOR_KEYS));
    const ids = m.notificationIDList && typeof m.notificationIDList === "object" ? (m.notificationIDList as Row) : {};
    for (const [id, on] of Object.entries(ids)) if (on) put("monitor_notification", { monitor_id: m.id, notification_id: Number(id) });
    for (const tag of isList(m.tags) ? m.tags : []) {
      const tagId = Number(tag.tag_id);
      if (!tagIds.has(tagId)) {
        tagIds.add(tagId);
        put("tag", { id: tagId, name: tag.name, color: tag.color });
      }
      put("monitor_tag", { monitor_id: m.id, tag_id: tagId, value: tag.value ?? "" });
    }
  }
  const columns = new Map([...tables].map(([name, list]) => [name, new Set(list.flatMap((r) => Object.keys(r)))]));
  return {
    schema: "1.x-json",
    label: `Uptime Kuma ${data.version} backup (${file})`,
    file: basename(file),
    version: data.version,
    rows: (table) => tables.get(table) ?? [],
    has: (table, column) => (column === undefined ? tables.has(table) : (columns.get(table)?.has(column) ?? false)),
    close: () => {},
  };
}
