// The database a test gets: SQLite in memory, or, when VIGIL_TEST_DATABASE_URL names a PostgreSQL server, a schema
// of its own there (created empty, migrated, dropped on close). `npm test` runs the API suite both ways.
import { SQL as BunSQL } from "bun";
import type { Db } from "./database";
import { openPostgres } from "./postgres";
import { openSqlite } from "./sqlite";

export const TEST_DATABASE_URL = process.env.VIGIL_TEST_DATABASE_URL || null;
export const testEngine = TEST_DATABASE_URL ? "postgres" : "sqlite";

let admin: BunSQL | null = null;
let made = 0;

/**
 * Drops the schemas earlier test processes left behind (those whose process is gone), in the background on a
 * connection of its own: after a whole suite there are hundreds (a test that does not close its database leaves its
 * schema), and dropping them on a loaded machine took longer than the first test's 90 s when it was awaited.
 * A schema still locked by a session (a killed node's statement finishing) is skipped after 3 s; a later sweep drops it.
 */
async function sweep(url: string) {
  const client = new BunSQL({ url, max: 1, idleTimeout: 5, connection: { lock_timeout: "3s" } });
  try {
    const rows: { name: string }[] = await client`SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'vigil_test_%'`;
    for (const { name } of rows) {
      const pid = Number(name.split("_")[2]);
      let alive = pid === process.pid;
      try {
        if (!alive) alive = process.kill(pid, 0);
      } catch {
        alive = false;
      }
      if (!alive) await client.unsafe(`DROP SCHEMA IF EXISTS "${name}" CASCADE`).catch(() => {});
    }
  } finally {
    await client.close().catch(() => {});
  }
}

/**
 * A new, empty PostgreSQL schema for a test (needs VIGIL_TEST_DATABASE_URL): its name, and a database URL that
 * points at it (`?schema=`), as an operator would give one to `--database-url` or `vigil migrate --to`.
 */
export async function testSchema(): Promise<{ schema: string; url: string; drop: () => Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error("testSchema() needs VIGIL_TEST_DATABASE_URL");
  if (!admin) {
    admin = new BunSQL({ url: TEST_DATABASE_URL, max: 2, idleTimeout: 5 });
    void sweep(TEST_DATABASE_URL).catch(() => {});
  }
  const schema = `vigil_test_${process.pid}_${++made}`;
  await admin.unsafe(`CREATE SCHEMA "${schema}"`);
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set("schema", schema);
  return { schema, url: url.toString(), drop: async () => void (await admin?.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {})) };
}

export async function testDb(): Promise<Db> {
  if (!TEST_DATABASE_URL) return openSqlite(":memory:");
  const { schema } = await testSchema();
  const db = await openPostgres(TEST_DATABASE_URL, { schema, max: 4, idleTimeout: 1 });
  const close = db.close;
  return Object.assign(db, {
    close: async () => {
      await close();
      await admin?.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    },
  });
}
