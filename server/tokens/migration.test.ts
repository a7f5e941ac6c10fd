import { afterEach, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { rmSync } from "node:fs";
import { oldDatabase } from "../db/old-database";
import { openDatabase } from "../db/open";

// A SQLite upgrade (a file an older Vigil left): PostgreSQL databases start from migration 0000 of their own.

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("migration 0008: existing tokens become read-write; accounts already disabled lose their sessions and tokens", async () => {
  const { dir, path, db: old } = oldDatabase("0008");
  dirs.push(dir);
  old.run("INSERT INTO users (username, password_hash, status, session_version, created_at, updated_at) VALUES ('alice', 'h', 'active', 3, 1, 1), ('bob', 'h', 'disabled', 0, 1, 1)");
  old.run("INSERT INTO api_tokens (user_id, name, token_hash, prefix, created_at) VALUES (1, 'ci', 'a', 'vgl_api_a', 1), (2, 'ci', 'b', 'vgl_api_b', 1)");
  old.close();

  const db = await openDatabase(path);
  expect(await db.rows(sql`SELECT user_id, scope FROM api_tokens ORDER BY id`)).toEqual([{ user_id: 1, scope: "write" }]);
  expect(await db.rows(sql`SELECT username, session_version FROM users ORDER BY id`)).toEqual([
    { username: "alice", session_version: 3 },
    { username: "bob", session_version: 1 },
  ]);
  await db.close();
});
