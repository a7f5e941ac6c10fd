// The embedded engine: one SQLite file in WAL mode (the default), or ":memory:" for tests.
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { chmodSync, closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SQL } from "drizzle-orm";
import type { Db, Orm } from "./database";
import { sqliteTables } from "./pg-schema";
import { NewerDatabaseError } from "./errors";

/**
 * The migrations folder. In source runs it sits beside this file; the executable embeds it with
 * `--asset server/db/migrations`, which lands at `<root>/migrations`, and `import.meta.dir` is that root.
 */
const MIGRATIONS_FOLDER = join(import.meta.dir, "migrations");

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

/** The time stamp of the newest migration this build has for `folder`. */
export function newestMigrationIn(folder: string): number {
  const journal = JSON.parse(readFileSync(join(folder, "meta", "_journal.json"), "utf8")) as Journal;
  return Math.max(...journal.entries.map((e) => e.when));
}

/** The time stamp of the newest SQLite migration this build has. */
export const newestKnownMigration = () => newestMigrationIn(MIGRATIONS_FOLDER);

/** The time stamp of the newest migration applied to a database, null when it has none (not a Vigil database yet). */
export function schemaVersion(sqlite: Database): number | null {
  const hasMigrations = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!hasMigrations) return null;
  return sqlite.query<{ newest: number | null }, []>("SELECT max(created_at) AS newest FROM __drizzle_migrations").get()?.newest ?? null;
}

/** In tests a transaction that spans a turn of the event loop fails (see Db.tx); in production it is logged. */
const STRICT_TX = process.env.NODE_ENV === "test";

/**
 * Opens (creating if needed) the database at `path` (":memory:" for tests), sets the pragmas and brings the schema
 * up to date. A database written by a newer Vigil (it has migrations this build does not know) is refused rather
 * than half-understood.
 */
export function openSqlite(path: string, { onSlowTx }: { onSlowTx?: (message: string) => void } = {}): Db {
  // The database holds password hashes and channel secrets: only Vigil's user may read it. Created 0600 (SQLite
  // gives its -wal and -shm files the database's mode); one made by an older build is tightened on open.
  const onDisk = path !== ":memory:" && !path.startsWith("file:");
  if (onDisk && !existsSync(path)) closeSync(openSync(path, "a", 0o600));
  const sqlite = new Database(path, { create: true, strict: true });
  // First: switching to WAL takes a lock, and another connection (a backup, a restore check) may briefly hold one.
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA journal_mode = WAL");
  if (onDisk) for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  const orm = drizzle({ client: sqlite }) as Orm;

  const lastKnown = newestKnownMigration();
  const newest = schemaVersion(sqlite);
  if (newest !== null && newest > lastKnown) {
    sqlite.close();
    throw new NewerDatabaseError(
      `The database ${path} was written by a newer version of Vigil (schema from ${new Date(newest).toISOString()}, ` +
        `this build knows up to ${new Date(lastKnown).toISOString()}). Upgrade Vigil, or start it with another --data-dir.`,
    );
  }
  migrate(orm, { migrationsFolder: MIGRATIONS_FOLDER });
  return sqliteDb(sqlite, path, { onSlowTx });
}

/**
 * Vigil's database over an open, already migrated SQLite connection (openSqlite's last step; the tests' copies of
 * one migrated in-memory database, server/db/test-db.ts, start here).
 */
export function sqliteDb(sqlite: Database, path: string, { onSlowTx }: { onSlowTx?: (message: string) => void } = {}): Db {
  const orm = drizzle({ client: sqlite }) as Orm;
  // One transaction at a time: a second one waits for the first to end.
  let queue: Promise<unknown> = Promise.resolve();
  const db: Db = {
    engine: "sqlite",
    orm,
    t: sqliteTables,
    sqlite,
    pg: null,
    location: path,
    tx<T>(fn: (tx: Orm) => Promise<T>): Promise<T> {
      const run = async () => {
        let crossed = false;
        const turn = setImmediate(() => (crossed = true));
        sqlite.exec("BEGIN IMMEDIATE");
        try {
          const result = await fn(orm);
          clearImmediate(turn);
          if (crossed) {
            const message = "a transaction awaited something other than the database (it spanned a turn of the event loop)";
            if (STRICT_TX) throw new Error(message);
            onSlowTx?.(message);
          }
          sqlite.exec("COMMIT");
          return result;
        } catch (e) {
          clearImmediate(turn);
          if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
          throw e;
        }
      };
      const result = queue.then(run, run);
      queue = result.catch(() => {});
      return result;
    },
    rows: async <T>(query: SQL, tx: Orm = orm) => tx.all(query) as T[],
    exec: async (query: SQL, tx: Orm = orm) => (tx.run(query) as unknown as { changes: number }).changes,
    ping: async () => void sqlite.query("SELECT 1").get(),
    close: async () => sqlite.close(),
  };
  return db;
}

/**
 * A hot-path batch write on SQLite: `write` (prepared statements, synchronous) wrapped in one transaction. When
 * another feature's db.tx is open, awaiting between its statements, bun:sqlite would nest the batch in it as a
 * savepoint (tied to its fate): then the batch queues behind it instead; otherwise it is written at once.
 */
export function sqliteBatch<A extends unknown[]>(db: Db, write: (...args: A) => void): (...args: A) => Promise<void> {
  const sqlite = db.sqlite!;
  const transaction = sqlite.transaction(write);
  return async (...args: A) => {
    if (sqlite.inTransaction) await db.tx(async () => write(...args));
    else transaction(...args);
  };
}
