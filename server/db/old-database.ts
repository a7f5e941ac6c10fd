// For migration tests: a database file as an older Vigil left it, migrated only up to (not including) a given
// migration, so a test can plant rows in the old shape and then open it with today's code.
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { drizzle as drizzlePg } from "drizzle-orm/bun-sql";
import { migrate as migratePg } from "drizzle-orm/bun-sql/migrator";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "./database";
import { openDatabase } from "./open";
import { TEST_DATABASE_URL, testSchema } from "./test-db";

const MIGRATIONS = join(import.meta.dir, "migrations");

/**
 * A new temp dir holding `vigil.db` with every migration whose tag sorts before `beforeTag` ("0007" keeps 0000–0006)
 * applied. The caller plants rows through `db`, closes it, opens `path` with openDatabase, and removes `dir`.
 */
export function oldDatabase(beforeTag: string): { dir: string; path: string; db: Database } {
  const dir = mkdtempSync(join(tmpdir(), "vigil-upgrade-"));
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta/_journal.json"), "utf8"));
  const entries = journal.entries.filter((e: { tag: string }) => e.tag < beforeTag);
  mkdirSync(join(dir, "old/meta"), { recursive: true });
  for (const e of entries) copyFileSync(join(MIGRATIONS, `${e.tag}.sql`), join(dir, "old", `${e.tag}.sql`));
  writeFileSync(join(dir, "old/meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  const path = join(dir, "vigil.db");
  const db = new Database(path);
  migrate(drizzle({ client: db }), { migrationsFolder: join(dir, "old") });
  return { dir, path, db };
}

/**
 * The same for PostgreSQL: the schema `url` points at (`?schema=`, from testSchema) migrated with the PostgreSQL
 * migrations whose tag sorts before `beforeTag`. Returns a client (search_path set) to plant rows with; close it,
 * then open `url` with openDatabase.
 */
export async function oldPostgresSchema(url: string, beforeTag: string): Promise<{ dir: string; client: SQL }> {
  const folder = join(import.meta.dir, "migrations-pg");
  const dir = mkdtempSync(join(tmpdir(), "vigil-upgrade-pg-"));
  const journal = JSON.parse(readFileSync(join(folder, "meta/_journal.json"), "utf8"));
  const entries = journal.entries.filter((e: { tag: string }) => e.tag < beforeTag);
  mkdirSync(join(dir, "meta"), { recursive: true });
  for (const e of entries) copyFileSync(join(folder, `${e.tag}.sql`), join(dir, `${e.tag}.sql`));
  writeFileSync(join(dir, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema")!;
  parsed.searchParams.delete("schema");
  const client = new SQL({ url: parsed.toString(), max: 1, connection: { search_path: schema } });
  await migratePg(drizzlePg({ client }), { migrationsFolder: dir, migrationsSchema: schema, migrationsTable: "__drizzle_migrations" });
  return { dir, client };
}

/**
 * A database on the test engine at the schema before a migration (`sqliteTag` / `pgTag`), holding the rows `plant`
 * inserts, opened (and so migrated) by today's code. `cleanups` gets what removes it, to run after the test.
 */
export async function migratedFrom(tags: { sqliteTag: string; pgTag: string }, plant: string, cleanups: (() => unknown)[]): Promise<Db> {
  if (TEST_DATABASE_URL) {
    const s = await testSchema();
    cleanups.push(s.drop);
    const { dir, client } = await oldPostgresSchema(s.url, tags.pgTag);
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    await client.unsafe(plant);
    await client.close();
    return openDatabase(s.url, { max: 2 });
  }
  const { dir, path, db: old } = oldDatabase(tags.sqliteTag);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  old.run(plant);
  old.close();
  return openDatabase(path);
}
