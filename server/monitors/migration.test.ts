import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { oldDatabase } from "../db/old-database";
import { openDatabase } from "../db/open";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

// About SQLite files themselves (an old vigil.db upgraded in place): SQLite only.
test("a database from before monitors (foundation schema only) is upgraded in place, its users kept", async () => {
  const { dir, path, db: old } = oldDatabase("0001");
  dirs.push(dir);
  old.run("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES ('alice', 'h', 1, 1)");
  expect(old.query("SELECT name FROM sqlite_master WHERE name = 'monitors'").get()).toBeNull();
  old.close();

  const db = await openDatabase(path);
  const tables = (db.sqlite!.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
  expect(tables).toEqual(expect.arrayContaining(["users", "monitors", "check_results", "monitor_hourly", "monitor_daily"]));
  expect(db.sqlite!.query("SELECT username FROM users").all()).toEqual([{ username: "alice" }]);
  await db.close();
});

test("monitors from before check types are upgraded to http monitors with every setting and result kept", async () => {
  const { dir, path, db: old } = oldDatabase("0007");
  dirs.push(dir);
  old.run(
    "INSERT INTO monitors (name, url, method, interval, timeout, expected_status, status, created_at, updated_at) VALUES ('shop', 'https://shop.test/', 'HEAD', 5, 10, '200', 'up', 1, 1)",
  );
  old.run("INSERT INTO check_results (monitor_id, time, up, response_time) VALUES (1, 1000, 1, 42)");
  old.close();

  const db = await openDatabase(path);
  const row = db.sqlite!.query("SELECT * FROM monitors").get() as Record<string, unknown>;
  expect(row).toMatchObject({ type: "http", status: "up", tags: "[]", push_token: null });
  expect(JSON.parse(row.settings as string)).toMatchObject({ url: "https://shop.test/", method: "HEAD", expectedStatus: "200", keyword: null });
  expect(db.sqlite!.query("SELECT count(*) AS n FROM check_results").get()).toEqual({ n: 1 });
  await db.close();
});

test("check results move to a table keyed (monitor, time) without a rowid, every row kept: same-millisecond ones shifted", async () => {
  const { dir, path, db: old } = oldDatabase("0024");
  dirs.push(dir);
  old.run("INSERT INTO monitors (name, url, interval, timeout, created_at, updated_at) VALUES ('a', 'https://a.test/', 1, 10, 1, 1), ('b', 'https://b.test/', 1, 10, 1, 1)");
  // Monitor 1: two checks at 1000 and one at 1001 (the shift must not land on it), then 5000; monitor 2 untouched.
  for (const [m, time, error] of [[1, 1000, "x"], [1, 1000, "y"], [1, 1001, "z"], [1, 5000, null], [2, 1000, null]] as const) {
    old.run("INSERT INTO check_results (monitor_id, time, up, error) VALUES (?, ?, 1, ?)", [m, time, error]);
  }
  old.close();

  const db = await openDatabase(path);
  const rows = db.sqlite!.query("SELECT monitor_id AS m, time, error FROM check_results ORDER BY monitor_id, time").all();
  expect(rows).toEqual([
    { m: 1, time: 1000, error: "x" },
    { m: 1, time: 1001, error: "y" },
    { m: 1, time: 1002, error: "z" },
    { m: 1, time: 5000, error: null },
    { m: 2, time: 1000, error: null },
  ]);
  const ddl = (db.sqlite!.query("SELECT sql FROM sqlite_master WHERE name = 'check_results'").get() as { sql: string }).sql;
  expect(ddl).toContain("WITHOUT ROWID");
  // The key is the table: no second b-tree beside it.
  expect(db.sqlite!.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'check_results'").all()).toEqual([]);
  await db.close();
});
