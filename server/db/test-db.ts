// The database a test gets: SQLite in memory, or, when VIGIL_TEST_DATABASE_URL names a PostgreSQL server, a database
// of its own there (migrated, emptied for the next test or dropped on close). `npm test` runs the API suite both ways.
import { SQL as BunSQL } from "bun";
import { Database } from "bun:sqlite";
import type { Db } from "./database";
import { openPostgres } from "./postgres";
import { openSqlite, sqliteDb } from "./sqlite";
import { isTimePartition } from "../monitors/packing";

export const TEST_DATABASE_URL = process.env.VIGIL_TEST_DATABASE_URL || null;
export const testEngine = TEST_DATABASE_URL ? "postgres" : "sqlite";

let admin: BunSQL | null = null;
let made = 0;

/** Whether a vigil_test_<pid>_… name belongs to a process that is gone. */
function orphaned(name: string): boolean {
  const pid = Number(name.split("_")[2]);
  if (pid === process.pid) return false;
  try {
    return !process.kill(pid, 0);
  } catch {
    return true;
  }
}

/**
 * Drops the schemas and databases earlier test processes left behind (those whose process is gone), in the background
 * on a connection of its own: after a whole suite there are hundreds (a test that does not close its database leaves
 * it), and dropping them on a loaded machine took longer than the first test's 90 s when it was awaited.
 * A schema still locked by a session (a killed node's statement finishing) is skipped after 3 s; a later sweep drops it.
 */
async function sweep(url: string) {
  const client = new BunSQL({ url, max: 1, idleTimeout: 5, connection: { lock_timeout: "3s" } });
  try {
    const schemas: { name: string }[] = await client`SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'vigil_test_%'`;
    for (const { name } of schemas) if (orphaned(name)) await client.unsafe(`DROP SCHEMA IF EXISTS "${name}" CASCADE`).catch(() => {});
    const databases: { name: string }[] = await client`SELECT datname AS name FROM pg_database WHERE datname LIKE 'vigil_test_%'`;
    for (const { name } of databases) if (orphaned(name)) await client.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
  } finally {
    await client.close().catch(() => {});
  }
}

function adminClient(): BunSQL {
  if (!TEST_DATABASE_URL) throw new Error("needs VIGIL_TEST_DATABASE_URL");
  if (!admin) {
    admin = new BunSQL({ url: TEST_DATABASE_URL, max: 2, idleTimeout: 5 });
    void sweep(TEST_DATABASE_URL).catch(() => {});
  }
  return admin;
}

/** The test server's URL with another database named. */
function urlOf(database: string): string {
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A new, empty PostgreSQL schema for a test (needs VIGIL_TEST_DATABASE_URL): its name, and a database URL that
 * points at it (`?schema=`), as an operator would give one to `--database-url` or `vigil migrate --to`.
 */
export async function testSchema(): Promise<{ schema: string; url: string; drop: () => Promise<void> }> {
  const client = adminClient();
  const schema = `vigil_test_${process.pid}_${++made}`;
  await client.unsafe(`CREATE SCHEMA "${schema}"`);
  const url = new URL(TEST_DATABASE_URL!);
  url.searchParams.set("schema", schema);
  return { schema, url: url.toString(), drop: async () => void (await admin?.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {})) };
}

/**
 * The database a test gets, migrated and empty. Migrating takes ~50 ms on SQLite and, on PostgreSQL, ~300 ms and
 * 0.4 s of the server's CPU: once per test, that was half the API suite's time. So a process migrates once: on SQLite
 * each test deserializes a copy of the migrated database's bytes; on PostgreSQL each test gets a copy of a migrated
 * template database (CREATE DATABASE … TEMPLATE: a file copy), and a database its test closed is emptied for the next
 * test instead of dropped. The migrations themselves run where a test opens a database by its URL (testSchema,
 * `vigil migrate`), in the template, and in server/db/pg-schema.test.ts.
 */
export async function testDb(): Promise<Db> {
  if (!TEST_DATABASE_URL) {
    migratedSqlite ??= (() => {
      const first = openSqlite(":memory:");
      const bytes = first.sqlite!.serialize();
      first.sqlite!.close();
      return bytes;
    })();
    const sqlite = Database.deserialize(migratedSqlite, { strict: true });
    sqlite.exec("PRAGMA foreign_keys = ON");
    return sqliteDb(sqlite, ":memory:");
  }
  const database = spareDatabases.pop() ?? (await copyOfTemplate());
  const db = await openPostgres(urlOf(database), { max: 4, idleTimeout: 1 });
  const close = db.close;
  return Object.assign(db, {
    close: async () => {
      const reusable = await emptied(db);
      await close();
      if (reusable) spareDatabases.push(database);
      else await admin?.unsafe(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => {});
    },
  });
}

let migratedSqlite: Uint8Array | null = null;
let template: Promise<string> | null = null;
/** Databases of this process's closed tests, emptied, for the next tests. */
const spareDatabases: string[] = [];

async function copyOfTemplate(): Promise<string> {
  const client = adminClient();
  template ??= (async () => {
    const name = `vigil_test_${process.pid}_template`;
    await client.unsafe(`CREATE DATABASE "${name}"`);
    await (await openPostgres(urlOf(name), { max: 1 })).close();
    return name;
  })();
  const source = await template;
  const name = `vigil_test_${process.pid}_${++made}`;
  await client.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${source}"`);
  return name;
}

/**
 * Empties a test database for reuse: every row deleted (foreign keys and triggers aside, as a replica would), every
 * sequence back at 1. Deleting from a few dozen tiny tables takes milliseconds where TRUNCATE (new files for every
 * table and index) took 120. False when that cannot be done (a login that may not set session_replication_role, a
 * pool already closed): the database is then dropped instead.
 */
async function emptied(db: Db): Promise<boolean> {
  try {
    await db.pg!.begin(async (tx) => {
      const tables: { name: string }[] = await tx`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '__drizzle_migrations'`;
      await tx.unsafe(
        [
          "SET LOCAL session_replication_role = replica",
          // Partitions made as checks were written and packed (server/monitors/packing.ts) go, as in the template.
          ...tables.map(({ name }) => (isTimePartition(name) ? `DROP TABLE "${name}"` : `DELETE FROM "${name}"`)),
          "SELECT setval(c.oid, 1, false) FROM pg_class c WHERE c.relkind = 'S' AND c.relnamespace = current_schema()::regnamespace",
        ].join(";\n"),
      );
    });
    return true;
  } catch {
    return false;
  }
}
