import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NewerDatabaseError, openDatabase } from "./open";

const dirs: string[] = [];
const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), "vigil-db-"));
  dirs.push(dir);
  return join(dir, "vigil.db");
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("openDatabase", () => {
  test("creates the schema with WAL and foreign keys on", () => {
    const path = tempDb();
    const db = openDatabase(path);
    expect(db.$client.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(db.$client.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
    const tables = db.$client.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    expect(tables.map((t: any) => t.name)).toContain("users");
    db.$client.close();
  });

  test("re-opening keeps the data and applies nothing twice", () => {
    const path = tempDb();
    const first = openDatabase(path);
    first.$client.run("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES ('a', 'h', 1, 1)");
    const applied = first.$client.query("SELECT count(*) AS n FROM __drizzle_migrations").get();
    first.$client.close();
    const again = openDatabase(path);
    expect(again.$client.query("SELECT username FROM users").all()).toEqual([{ username: "a" }]);
    expect(again.$client.query("SELECT count(*) AS n FROM __drizzle_migrations").get()).toEqual(applied);
    again.$client.close();
  });

  test("the database and its WAL files are readable by Vigil's user alone, also one an older build left 0644", () => {
    const path = tempDb();
    const db = openDatabase(path);
    db.$client.run("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES ('a', 'h', 1, 1)");
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(statSync(file).mode & 0o777).toBe(0o600);
    db.$client.close();

    const old = tempDb();
    writeFileSync(old, "");
    chmodSync(old, 0o644);
    openDatabase(old).$client.close();
    expect(statSync(old).mode & 0o777).toBe(0o600);
  });

  test("a database from a newer Vigil is refused with a clear message", () => {
    const path = tempDb();
    openDatabase(path).$client.close();
    const raw = new Database(path);
    raw.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ?)", [Date.now() + 365 * 86_400_000]);
    raw.close();
    expect(() => openDatabase(path)).toThrow(NewerDatabaseError);
    expect(() => openDatabase(path)).toThrow(/newer version of Vigil/);
  });
});
