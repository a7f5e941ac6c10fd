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
  expect(row).toMatchObject({ type: "http", url: "https://shop.test/", method: "HEAD", expected_status: "200", status: "up", tags: "[]", keyword: null, push_token: null });
  expect(db.sqlite!.query("SELECT count(*) AS n FROM check_results").get()).toEqual({ n: 1 });
  await db.close();
});
