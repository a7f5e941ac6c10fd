import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HttpError } from "../../http/http-error";
import { readKumaSource } from "./read";
import { KUMA_FIXTURE_DIR as FIXTURE_DIR } from "./fixture";
import { fixtureCopy, kuma123, kumaBackup, removeTempDirs, tempDir } from "./test-fixture";
import { KNOWN_V1_PATCHES } from "./known-schemas";

afterEach(removeTempDirs);

/** The code readKumaSource refuses `path` with. */
async function refusal(path: string): Promise<{ code: string; status: number; message: string }> {
  try {
    (await readKumaSource(path)).close();
  } catch (e) {
    if (e instanceof HttpError) return { code: e.code, status: e.status, message: e.message };
    throw e;
  }
  throw new Error(`${path} was not refused`);
}

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("Kuma 2.x", () => {
  test("the sample database is read as 2.x, from its data dir or its kuma.db, and left exactly as it was", async () => {
    const dir = fixtureCopy();
    const before = sha(join(dir, "kuma.db"));
    for (const path of [dir, join(dir, "kuma.db")]) {
      const source = await readKumaSource(path);
      expect(source.schema).toBe("2.x");
      expect(source.label).toContain("Uptime Kuma 2.x database");
      expect(source.file).toBe("kuma.db");
      expect(source.rows("monitor")).toHaveLength(38);
      expect(source.has("monitor", "json_path_operator")).toBe(true);
      expect(source.has("monitor", "no_such_column")).toBe(false);
      expect(source.rows("no_such_table")).toEqual([]);
      source.close();
    }
    expect(sha(join(dir, "kuma.db"))).toBe(before);
    // Not even a -wal or -shm beside it: the database is read from a copy.
    expect(readdirSync(dir)).toEqual(["kuma.db"]);
  });

  test("a database with a migration this Vigil does not know is refused as a newer schema", async () => {
    const dir = fixtureCopy();
    const db = new Database(join(dir, "kuma.db"));
    db.run("INSERT INTO knex_migrations (name, batch, migration_time) VALUES ('2027-01-01-0000-add-something-new.js', 99, 0)");
    db.close();
    expect(await refusal(dir)).toMatchObject({ code: "KUMA_SCHEMA_UNKNOWN", status: 400, message: expect.stringContaining("2027-01-01-0000-add-something-new.js") });
  });

  test("a database Kuma is still writing (its WAL not checkpointed) is refused, saying how to stop Kuma", async () => {
    const dir = fixtureCopy();
    const kuma = new Database(join(dir, "kuma.db"));
    kuma.run("PRAGMA journal_mode = WAL");
    kuma.run("PRAGMA wal_autocheckpoint = 0");
    kuma.run("UPDATE monitor SET name = 'renamed' WHERE id = 4");
    try {
      expect(existsSync(join(dir, "kuma.db-wal"))).toBe(true);
      const r = await refusal(dir);
      expect(r.code).toBe("KUMA_STILL_RUNNING");
      expect(r.message).toContain("docker stop uptime-kuma");
      expect(r.message).toContain("systemctl stop uptime-kuma");
    } finally {
      kuma.close();
    }
    // Closed cleanly, Kuma folds the WAL in: now it reads.
    const source = await readKumaSource(dir);
    expect(source.rows("monitor").find((m) => m.id === 4)?.name).toBe("renamed");
    source.close();
  });
});

describe("not Kuma", () => {
  test("another SQLite database, a random file, other JSON, a dir without kuma.db and a missing path are refused as NOT_KUMA", async () => {
    const dir = tempDir();
    const other = new Database(join(dir, "other.db"));
    other.run("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)");
    other.close();
    writeFileSync(join(dir, "random.bin"), randomBytes(4096));
    writeFileSync(join(dir, "other.json"), JSON.stringify({ monitors: [] }));
    writeFileSync(join(dir, "broken.json"), "{ not json");
    for (const path of [join(dir, "other.db"), join(dir, "random.bin"), join(dir, "other.json"), join(dir, "broken.json"), dir, join(dir, "missing")]) {
      expect({ path, ...(await refusal(path)) }).toMatchObject({ path, code: "NOT_KUMA", status: 400 });
    }
    expect((await refusal(join(dir, "other.db"))).message).toContain("no monitor table");
  });

  test("the fixture directory itself (read-only) is read without writing beside it", async () => {
    const source = await readKumaSource(FIXTURE_DIR);
    expect(source.schema).toBe("2.x");
    source.close();
  });
});

describe("Kuma 1.x", () => {
  test("a Kuma 1.23 database is told apart by its schema (no knex_migrations, its patches recorded) and read", async () => {
    const dir = tempDir();
    kuma123(dir);
    const source = await readKumaSource(dir);
    expect(source.schema).toBe("1.23");
    expect(source.label).toContain("Uptime Kuma 1.x database");
    expect(source.has("knex_migrations")).toBe(false);
    expect(source.has("monitor", "json_path_operator")).toBe(false);
    expect(source.rows("monitor").map((m) => m.name)).toEqual(["Web", "Home", "Backup", "Cache"]);
    expect(source.rows("monitor_tag")).toEqual([expect.objectContaining({ monitor_id: 2, tag_id: 1, value: "prod" })]);
    source.close();
  });

  test("a 1.x database recording a patch this Vigil does not know is refused as a newer schema", async () => {
    const dir = tempDir();
    kuma123(dir, [...KNOWN_V1_PATCHES, "patch-from-the-future.sql"]);
    expect(await refusal(dir)).toMatchObject({ code: "KUMA_SCHEMA_UNKNOWN", message: expect.stringContaining("patch-from-the-future.sql") });
  });

  test("a Kuma 1.x JSON backup is read onto the database's table and column names", async () => {
    const dir = tempDir();
    const file = join(dir, "Uptime_Kuma_Backup.json");
    writeFileSync(file, JSON.stringify(kumaBackup()));
    const source = await readKumaSource(file);
    expect(source.schema).toBe("1.x-json");
    expect(source.label).toContain("Uptime Kuma 1.23.16 backup");
    expect({ file: source.file, version: source.version }).toEqual({ file: "Uptime_Kuma_Backup.json", version: "1.23.16" });
    const [web, push] = source.rows("monitor");
    expect(web).toMatchObject({ id: 1, name: "Web", type: "http", retry_interval: 30, upside_down: 1, ignore_tls: 0, accepted_statuscodes_json: '["200-299","301"]', basic_auth_user: "ops", auth_method: "basic" });
    expect(push).toMatchObject({ id: 2, type: "push", push_token: "pushtokenpushtokenpushtoken12345", active: 0 });
    expect(source.has("monitor", "retry_interval")).toBe(true);
    expect(source.rows("tag")).toEqual([{ id: 3, name: "env", color: "#2563EB" }]);
    expect(source.rows("monitor_tag")).toEqual([{ monitor_id: 1, tag_id: 3, value: "prod" }]);
    expect(source.rows("monitor_notification")).toEqual([{ monitor_id: 1, notification_id: 7 }]);
    expect(source.rows("notification")).toEqual([expect.objectContaining({ id: 7, name: "Ops Slack", is_default: 1 })]);
    source.close();
  });
});
