// The benchmarks on both storage engines (`--engines sqlite,postgres`): the PostgreSQL server a run uses, a fresh
// store per run (a SQLite file in the run's data dir, or a schema of its own on PostgreSQL), the database server's CPU
// over a window (PostgreSQL runs in its own processes: their CPU is a cost Vigil's own figure does not show), and
// the size of what was stored, measured the same way on both.
//
// PostgreSQL is the server named by --database-url / VIGIL_BENCH_DATABASE_URL, or else a throwaway one started the
// way scripts/test-postgres.sh starts the tests' (initdb in a temp dir, 127.0.0.1 and a socket in that dir, run as
// the `postgres` user when we are root), but with PostgreSQL's stock durability (fsync, synchronous_commit and
// full_page_writes on, as an operator runs it). It is stopped, and its files removed, at the end, on an error,
// and on Ctrl-C or SIGTERM (proc.ts turns both into process.exit, whose handlers run).
import { SQL as BunSQL } from "bun";
import { sql } from "drizzle-orm";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { redactUrl, type Engine } from "../../server/db/database";
import { openDatabase, type Db } from "../../server/db/open";
import { splitSchema } from "../../server/db/postgres";
import { CLK_TCK } from "./proc";

export type { Engine };
export const ENGINES = ["sqlite", "postgres"] as const;

/** "sqlite,postgres" → the engines in that order; null when a name is unknown or none is given. */
export function parseEngines(text: string): Engine[] | null {
  const out: Engine[] = [];
  for (const name of text.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean)) {
    const engine = name === "pg" || name === "postgresql" ? "postgres" : name;
    if (!(ENGINES as readonly string[]).includes(engine)) return null;
    if (!out.includes(engine as Engine)) out.push(engine as Engine);
  }
  return out.length ? out : null;
}

// ── The database server's processes ──────────────────────────────────────────────────────────────────────────────

/** /proc/<pid>/stat after the command name: [0] state, [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime. */
function statFields(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  } catch {
    return null; // gone
  }
}

const comm = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return null;
  }
};

function childrenOf(parent: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(Number(entry));
    if (f && Number(f[1]) === parent) out.push(Number(entry));
  }
  return out;
}

/**
 * CPU seconds (user + system) the whole cluster has used: the postmaster, its live children (backends, checkpointer,
 * WAL writer, autovacuum…), and the children it has reaped (the postmaster's cutime + cstime), so a connection that
 * closes inside a window still counts. The postmaster is read last: a child gone by then is in its reaped total.
 */
export function clusterCpuSeconds(postmaster: number): number {
  let ticks = 0;
  for (const pid of childrenOf(postmaster)) {
    const f = statFields(pid);
    if (f) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  }
  const f = statFields(postmaster);
  if (!f) throw new Error(`the PostgreSQL postmaster (pid ${postmaster}) is gone`);
  ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  return ticks / CLK_TCK;
}

/** The cluster's memory without counting shared buffers once per process: the sum of its processes' PSS. */
export function clusterPssBytes(postmaster: number): number | null {
  let kb = 0;
  for (const pid of [postmaster, ...childrenOf(postmaster)]) {
    try {
      kb += Number(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8").match(/^Pss:\s+(\d+)/m)?.[1] ?? 0);
    } catch {
      if (pid === postmaster) return null; // not ours to read
    }
  }
  return kb * 1024;
}

// ── The PostgreSQL server ────────────────────────────────────────────────────────────────────────────────────────

export interface PgServer {
  /** The URL runs derive theirs from (its own ?schema= dropped). */
  url: string;
  /** For the report: where it is and how it was set up. */
  describe: string;
  /** The postmaster when the server runs on this machine (its /proc visible); null otherwise (no server CPU). */
  postmaster: number | null;
  admin: BunSQL;
  /** Stops a throwaway server and removes its files (nothing for a given one but closing the connection). */
  stop(): Promise<void>;
}

const isLoopback = (url: string) => {
  try {
    return ["127.0.0.1", "localhost", "[::1]", "::1"].includes(new URL(url).hostname);
  } catch {
    return false;
  }
};

/** The postmaster serving `admin`'s connection: its backend's parent, when both are local `postgres` processes. */
async function findPostmaster(admin: BunSQL, url: string): Promise<number | null> {
  if (!isLoopback(url)) return null;
  const [{ pid }] = await admin`SELECT pg_backend_pid() AS pid`;
  const parent = Number(statFields(Number(pid))?.[1] ?? 0);
  return parent > 1 && comm(Number(pid)) === "postgres" && comm(parent) === "postgres" ? parent : null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** --database-url / VIGIL_BENCH_DATABASE_URL when given, else a throwaway server (see the top of this file). */
export async function startPg(given?: string): Promise<PgServer> {
  if (given) {
    const url = splitSchema(given).url;
    const admin = new BunSQL({ url, max: 2, idleTimeout: 30, connectionTimeout: 10 });
    const [{ version }] = await admin`SELECT current_setting('server_version') AS version`;
    const postmaster = await findPostmaster(admin, url);
    const cpuNote = postmaster ? `server CPU from postmaster pid ${postmaster} and its children (other clients' work counts too)` : "server CPU not visible from here";
    return { url, postmaster, admin, describe: `PostgreSQL ${version} at ${redactUrl(url)} (${cpuNote})`, stop: () => admin.close({ timeout: 5 }) };
  }
  return startThrowawayPg();
}

/** How long each step of starting or stopping the throwaway server may take. */
const PG_STEP_SECONDS = 60;

async function startThrowawayPg(): Promise<PgServer> {
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(a) - Number(b)) : [];
  const bin = versions.length ? `/usr/lib/postgresql/${versions.at(-1)}/bin` : "";
  if (!bin || !existsSync(join(bin, "initdb"))) {
    throw new Error("no PostgreSQL installed under /usr/lib/postgresql: pass --database-url postgres://… or set VIGIL_BENCH_DATABASE_URL");
  }
  const dir = mkdtempSync(join(tmpdir(), "vigil-bench-pg-"));
  const data = join(dir, "data");
  const as: string[] = [];
  let postmaster: number | null = null;
  let stopped = false;
  /** A command of the cluster's tools, run as its owner. */
  const tool = (name: string, args: string[]) => spawnSync(as.length ? as[0] : join(bin, name), [...as.slice(1), ...(as.length ? [join(bin, name)] : []), ...args], {
    encoding: "utf8",
    timeout: (PG_STEP_SECONDS + 10) * 1000,
  });
  // Synchronous, so it also runs from the exit handler.
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    if (existsSync(join(data, "postmaster.pid"))) tool("pg_ctl", ["-D", data, "-m", "fast", "-t", String(PG_STEP_SECONDS), "stop"]);
    if (postmaster && statFields(postmaster)) {
      try {
        process.kill(postmaster, "SIGKILL"); // its children exit when they see it gone
      } catch {}
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Ctrl-C and SIGTERM end the process through process.exit (proc.ts): this runs then too.
  process.on("exit", stopSync);
  const run = (name: string, args: string[]) => {
    const r = tool(name, args);
    if (r.status !== 0) {
      const log = existsSync(join(dir, "server.log")) ? readFileSync(join(dir, "server.log"), "utf8").slice(-2000) : "";
      throw new Error(`${name} failed (${r.error?.message ?? `exit ${r.status}`}): ${r.stdout}${r.stderr}${log}`);
    }
  };
  try {
    chmodSync(dir, 0o755);
    if (process.getuid?.() === 0) {
      // initdb refuses root: the cluster belongs to the postgres user.
      const uid = Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim());
      const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim());
      if (!(uid > 0)) throw new Error("running as root, and there is no postgres user to run PostgreSQL as");
      chownSync(dir, uid, gid);
      as.push("runuser", "-u", "postgres", "--");
    }
    const port = await freePort();
    run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
    const settings = "-c listen_addresses=127.0.0.1 -c max_connections=200";
    run("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-w", "-t", String(PG_STEP_SECONDS), "-o", `-p ${port} -k ${dir} ${settings}`, "start"]);
    postmaster = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const admin = new BunSQL({ url, max: 2, idleTimeout: 30, connectionTimeout: 10 });
    const [{ version }] = await admin`SELECT current_setting('server_version') AS version`;
    const found = await findPostmaster(admin, url);
    if (found !== postmaster) throw new Error(`the backend's parent (${found}) is not the postmaster of postmaster.pid (${postmaster})`);
    return {
      url,
      postmaster,
      admin,
      describe: `throwaway PostgreSQL ${version} at ${url} (stock durability, ${settings.replaceAll("-c ", "")}; shared_buffers default)`,
      async stop() {
        await admin.close({ timeout: 5 }).catch(() => {});
        stopSync();
        process.off("exit", stopSync);
      },
    };
  } catch (e) {
    stopSync();
    throw e;
  }
}

// ── One run's store ──────────────────────────────────────────────────────────────────────────────────────────────

export interface BenchStore {
  engine: Engine;
  /** A SQLite file path, or a postgres:// URL with ?schema=. */
  location: string;
  /** Arguments that point the server at it (none for SQLite: the data dir's vigil.db). */
  serverArgs: string[];
  open(): Promise<Db>;
  /** CPU seconds the database server has used so far; null when there is none apart from Vigil (SQLite) or it is not visible. */
  serverCpu(): number | null;
  /** The database server's memory (PSS of its processes); null as for serverCpu. */
  serverPss(): number | null;
  /**
   * Bytes on disk of a table with its indexes, and of the whole store. SQLite: pages from dbstat after a checkpoint,
   * and the file; PostgreSQL: pg_total_relation_size (heap, indexes, TOAST, free-space maps) of the table or of each of
   * its partitions, and that summed over
   * every table of the schema (WAL not counted on either).
   */
  sizes(db: Db, tables: string[]): Promise<{ tables: Record<string, number>; total: number }>;
  /** Drops the run's schema (PostgreSQL) unless kept. */
  drop(): Promise<void>;
}

let schemas = 0;

/** A fresh store for one run: `dir`/vigil.db, or a new schema on `pg`. */
export async function freshStore(engine: Engine, dir: string, pg: PgServer | null, { keep = false } = {}): Promise<BenchStore> {
  if (engine === "sqlite") {
    const path = join(dir, "vigil.db");
    return {
      engine,
      location: path,
      serverArgs: [],
      open: () => openDatabase(path),
      serverCpu: () => null,
      serverPss: () => null,
      async sizes(db, tables) {
        const sqlite = db.sqlite!;
        sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
        const out: Record<string, number> = {};
        for (const t of tables) {
          const row = sqlite
            .query("SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name = ?1 OR name IN (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1)")
            .get(t) as { b: number };
          out[t] = row.b;
        }
        return { tables: out, total: statSync(path).size };
      },
      drop: async () => {},
    };
  }
  if (!pg) throw new Error("no PostgreSQL server for a postgres run");
  const schema = `vigil_bench_${process.pid}_${++schemas}`;
  await pg.admin.unsafe(`CREATE SCHEMA "${schema}"`);
  const u = new URL(pg.url);
  u.searchParams.set("schema", schema);
  const location = u.toString();
  const postmaster = pg.postmaster;
  return {
    engine,
    location,
    serverArgs: ["--database-url", location],
    open: () => openDatabase(location, { max: 4, idleTimeout: 5 }),
    serverCpu: () => (postmaster ? clusterCpuSeconds(postmaster) : null),
    serverPss: () => (postmaster ? clusterPssBytes(postmaster) : null),
    async sizes(db, tables) {
      const out: Record<string, number> = {};
      for (const t of tables) {
        // A partitioned table (check_results, check_blocks) is the sum of its partitions; pg_partition_tree has no row
        // for a plain table (agent_samples), which is its own size.
        const [row] = await db.rows<{ b: number | string | null }>(
          sql`SELECT coalesce((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree(to_regclass(${t}))), pg_total_relation_size(to_regclass(${t})))::bigint AS b`,
        );
        out[t] = Number(row?.b ?? 0);
      }
      const [all] = await db.rows<{ b: number | null }>(
        sql`SELECT sum(pg_total_relation_size(c.oid)) AS b FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'm')`,
      );
      return { tables: out, total: Number(all?.b ?? 0) };
    },
    drop: async () => {
      if (keep) process.stderr.write(`kept schema ${schema} (${redactUrl(location)})\n`);
      else await pg.admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
  };
}

/** Runs `fn` with a PostgreSQL server when `engines` has postgres (null otherwise), stopping it however `fn` ends. */
export async function withPg<T>(engines: Engine[], given: string | undefined, fn: (pg: PgServer | null) => Promise<T>): Promise<T> {
  const pg = engines.includes("postgres") ? await startPg(given) : null;
  try {
    return await fn(pg);
  } finally {
    await pg?.stop();
  }
}

/** A figure that may be missing, as the tables print it. */
export const dash = (v: number | null | undefined, fmt: (v: number) => string) => (v === null || v === undefined || !Number.isFinite(v) ? "—" : fmt(v));
