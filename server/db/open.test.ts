import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { sql } from "drizzle-orm";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "./database";
import { DatabaseUnavailableError, NewerDatabaseError, openDatabase } from "./open";
import { TEST_DATABASE_URL, testSchema } from "./test-db";

const dirs: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), "vigil-db-"));
  dirs.push(dir);
  return join(dir, "vigil.db");
};
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const count = async (db: Db, table: string) => Number((await db.rows<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(table)}`))[0]!.n);
const addUser = (db: Db, username: string) =>
  db.orm.insert(db.t.users).values({ username, passwordHash: "h", createdAt: 1, updatedAt: 1 });

// The SQLite file in a data dir (whatever engine the rest of the tests use).
describe("openDatabase on SQLite", () => {
  test("creates the schema with WAL and foreign keys on", async () => {
    const db = await openDatabase(tempDb());
    expect(db.engine).toBe("sqlite");
    expect(await db.rows(sql`PRAGMA journal_mode`)).toEqual([{ journal_mode: "wal" }]);
    expect(await db.rows(sql`PRAGMA foreign_keys`)).toEqual([{ foreign_keys: 1 }]);
    const tables = await db.rows<{ name: string }>(sql`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`);
    expect(tables.map((t) => t.name)).toContain("users");
    await db.close();
  });

  test("re-opening keeps the data and applies nothing twice", async () => {
    const path = tempDb();
    const first = await openDatabase(path);
    await addUser(first, "a");
    const applied = await count(first, "__drizzle_migrations");
    await first.close();
    const again = await openDatabase(path);
    expect(await again.orm.select({ username: again.t.users.username }).from(again.t.users)).toEqual([{ username: "a" }]);
    expect(await count(again, "__drizzle_migrations")).toBe(applied);
    await again.close();
  });

  test("the database and its WAL files are readable by Vigil's user alone, also one an older build left 0644", async () => {
    const path = tempDb();
    const db = await openDatabase(path);
    await addUser(db, "a");
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(statSync(file).mode & 0o777).toBe(0o600);
    await db.close();

    const old = tempDb();
    writeFileSync(old, "");
    chmodSync(old, 0o644);
    await (await openDatabase(old)).close();
    expect(statSync(old).mode & 0o777).toBe(0o600);
  });

  test("a database from a newer Vigil is refused with a clear message", async () => {
    const path = tempDb();
    await (await openDatabase(path)).close();
    const raw = new Database(path);
    raw.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ?)", [Date.now() + 365 * 86_400_000]);
    raw.close();
    await expect(openDatabase(path)).rejects.toThrow(NewerDatabaseError);
    await expect(openDatabase(path)).rejects.toThrow(/newer version of Vigil/);
  });
});

describe("openDatabase on PostgreSQL", () => {
  test("a server that cannot be reached is DatabaseUnavailableError, without the password", async () => {
    const error = await openDatabase("postgres://vigil:s3cret@127.0.0.1:1/vigil").then(() => null, (e: Error) => e);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(error!.message).toContain("postgres://vigil:");
    expect(error!.message).not.toContain("s3cret");
  });

  const pgMigrations = () =>
    (JSON.parse(readFileSync(join(import.meta.dir, "migrations-pg/meta/_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;

  /** A new empty schema; opened handles are closed and the schema dropped after the test. */
  async function schema() {
    const s = await testSchema();
    cleanups.push(s.drop);
    const open = async () => {
      const db = await openDatabase(s.url, { max: 2, idleTimeout: 1 });
      cleanups.push(() => db.close());
      return db;
    };
    return { ...s, open };
  }

  test.skipIf(!TEST_DATABASE_URL)("two nodes starting at once on an empty database: the migrations are applied once", async () => {
    const s = await schema();
    const [a, b, c] = await Promise.all([s.open(), s.open(), s.open()]);
    expect(a.engine).toBe("postgres");
    expect(await count(a, "__drizzle_migrations")).toBe(pgMigrations());
    // Every node sees the one schema: a row one writes, another reads.
    await addUser(b, "alice");
    expect(await c.orm.select({ username: c.t.users.username }).from(c.t.users)).toEqual([{ username: "alice" }]);
    // Opening again later applies nothing more.
    const d = await s.open();
    expect(await count(d, "__drizzle_migrations")).toBe(pgMigrations());
    expect(await count(d, "users")).toBe(1);
  });

  test.skipIf(!TEST_DATABASE_URL)("a database from a newer Vigil is refused with a clear message, and left as it was", async () => {
    const s = await schema();
    const db = await s.open();
    await db.exec(sql`INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ${Date.now() + 365 * 86_400_000})`);
    const opening = openDatabase(s.url, { max: 1 });
    await expect(opening).rejects.toThrow(NewerDatabaseError);
    await expect(openDatabase(s.url, { max: 1 })).rejects.toThrow(/newer version of Vigil/);
    expect(await count(db, "__drizzle_migrations")).toBe(pgMigrations() + 1);
  });
});
