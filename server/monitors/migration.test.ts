import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../db/open";

const MIGRATIONS = join(import.meta.dir, "../db/migrations");
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("a database from before monitors (foundation schema only) is upgraded in place, its users kept", () => {
  const dir = mkdtempSync(join(tmpdir(), "vigil-upgrade-"));
  dirs.push(dir);
  // A migrations folder holding only the first (foundation) migration.
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta/_journal.json"), "utf8"));
  const first = journal.entries[0];
  mkdirSync(join(dir, "old/meta"), { recursive: true });
  copyFileSync(join(MIGRATIONS, `${first.tag}.sql`), join(dir, "old", `${first.tag}.sql`));
  writeFileSync(join(dir, "old/meta/_journal.json"), JSON.stringify({ ...journal, entries: [first] }));

  const path = join(dir, "vigil.db");
  const old = new Database(path);
  migrate(drizzle({ client: old }), { migrationsFolder: join(dir, "old") });
  old.run("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES ('alice', 'h', 1, 1)");
  expect(old.query("SELECT name FROM sqlite_master WHERE name = 'monitors'").get()).toBeNull();
  old.close();

  const db = openDatabase(path);
  const tables = (db.$client.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
  expect(tables).toEqual(expect.arrayContaining(["users", "monitors", "check_results", "monitor_hourly", "monitor_daily"]));
  expect(db.$client.query("SELECT username FROM users").all()).toEqual([{ username: "alice" }]);
  db.$client.close();
});

test("monitors from before check types are upgraded to http monitors with every setting and result kept", () => {
  const dir = mkdtempSync(join(tmpdir(), "vigil-upgrade-"));
  dirs.push(dir);
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta/_journal.json"), "utf8"));
  const before = journal.entries.filter((e: { tag: string }) => e.tag < "0007");
  mkdirSync(join(dir, "old/meta"), { recursive: true });
  for (const e of before) copyFileSync(join(MIGRATIONS, `${e.tag}.sql`), join(dir, "old", `${e.tag}.sql`));
  writeFileSync(join(dir, "old/meta/_journal.json"), JSON.stringify({ ...journal, entries: before }));

  const path = join(dir, "vigil.db");
  const old = new Database(path);
  migrate(drizzle({ client: old }), { migrationsFolder: join(dir, "old") });
  old.run(
    "INSERT INTO monitors (name, url, method, interval, timeout, expected_status, status, created_at, updated_at) VALUES ('shop', 'https://shop.test/', 'HEAD', 5, 10, '200', 'up', 1, 1)",
  );
  old.run("INSERT INTO check_results (monitor_id, time, up, response_time) VALUES (1, 1000, 1, 42)");
  old.close();

  const db = openDatabase(path);
  const row = db.$client.query("SELECT * FROM monitors").get() as Record<string, unknown>;
  expect(row).toMatchObject({ type: "http", url: "https://shop.test/", method: "HEAD", expected_status: "200", status: "up", tags: "[]", keyword: null, push_token: null });
  expect(db.$client.query("SELECT count(*) AS n FROM check_results").get()).toEqual({ n: 1 });
  db.$client.close();
});
