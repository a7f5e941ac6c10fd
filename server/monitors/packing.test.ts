// Checks packed an hour to a row on PostgreSQL (packing.ts), read back as rows (check-rows.ts). PostgreSQL only: on
// SQLite check_results is one table and there is nothing to pack (history.test.ts covers retention on both).
import { afterEach, describe, expect, test } from "bun:test";
import { SQL as BunSQL } from "bun";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sql";
import { migrate } from "drizzle-orm/bun-sql/migrator";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "../db/database";
import { openDatabase } from "../db/open";
import { testDb, testEngine, testSchema } from "../db/test-db";
import { checkRows, DAY, HOUR, newestChecks, newestOfEach, oldestCheckTime } from "./check-rows";
import { createCheckPacking, dayPartition, hourPartition } from "./packing";

const T0 = Date.UTC(2026, 0, 5); // 00:00 UTC
const opened: Db[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
  for (const c of cleanups.splice(0)) await c();
});

interface Check {
  monitor_id: number;
  time: number;
  up: boolean;
  response_time: number | null;
  http_status: number | null;
  error: string | null;
  maintenance: boolean;
  ping: { sent: number; received: number } | null;
}

/** Checks of every shape: down ones without a response time, errors, maintenance, ping statistics. */
function checksOf(monitorId: number, hour: number, everyMs: number): Check[] {
  const out: Check[] = [];
  for (let i = 0, t = hour + 17; t < hour + HOUR; i++, t += everyMs) {
    const down = i % 7 === 3;
    out.push({
      monitor_id: monitorId,
      time: t,
      up: !down,
      response_time: down ? null : 40 + (i % 11),
      http_status: down ? (i % 2 ? 500 : null) : 200,
      error: down ? `status ${i}` : null,
      maintenance: i % 13 === 5,
      ping: i % 5 === 0 ? { sent: 3, received: 3 - (i % 2) } : null,
    });
  }
  return out;
}

async function insert(db: Db, checks: Check[]) {
  for (let i = 0; i < checks.length; i += 500) {
    const values = checks.slice(i, i + 500).map((c) => sql`(${c.monitor_id}, ${c.time}, ${c.up}, ${c.response_time}, ${c.http_status}, ${c.error}, ${c.maintenance}, ${c.ping === null ? null : JSON.stringify(c.ping)}::text::jsonb)`);
    await db.exec(sql`INSERT INTO check_results (monitor_id, time, up, response_time, http_status, error, maintenance, ping) VALUES ${sql.join(values, sql`, `)}`);
  }
}

const all = (db: Db) =>
  db.rows<Check>(sql`SELECT monitor_id, time, up, response_time, http_status, error, maintenance, ping FROM ${checkRows(db.engine, null)} ORDER BY monitor_id, time`);
const rawRows = async (db: Db) => Number((await db.rows<{ n: number }>(sql`SELECT count(*) AS n FROM check_results`))[0]!.n);
const partitions = async (db: Db, parent: string) =>
  (await db.rows<{ name: string }>(sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass(${parent}) ORDER BY 1`)).map((r) => r.name);

async function withMonitors(n: number): Promise<Db> {
  const db = await testDb();
  opened.push(db);
  const values = Array.from({ length: n }, (_, i) => sql`(${i + 1}, ${`m${i + 1}`}, '{"url":"http://a.test/"}', 1, 10, 0, 0)`);
  await db.exec(sql`INSERT INTO monitors (id, name, settings, interval, timeout, created_at, updated_at) VALUES ${sql.join(values, sql`, `)}`);
  return db;
}

describe.skipIf(testEngine !== "postgres")("checks packed an hour to a row (PostgreSQL)", () => {
  test("an hour packed reads back check for check, every column; its partition is dropped, the default emptied", async () => {
    const db = await withMonitors(2);
    const packing = createCheckPacking(db);
    expect(await packing.ensureHours(T0 + HOUR)).toBe(3);
    expect(await partitions(db, "check_results")).toEqual([hourPartition(T0 + HOUR), hourPartition(T0 + 2 * HOUR), hourPartition(T0 + 3 * HOUR), "check_results_default"]);
    // Hour 0 has no partition (the default takes it), hour 1 has one.
    await insert(db, [...checksOf(1, T0, 60_000), ...checksOf(2, T0, 20_000), ...checksOf(1, T0 + HOUR, 60_000), ...checksOf(2, T0 + HOUR, 20_000)]);
    const before = await all(db);
    expect(before).toHaveLength(2 * 60 + 2 * 180);

    // Hour 2 has not ended by T0 + 2 h 30: only hours 0 and 1 go.
    expect(await packing.pack(T0 + 2 * HOUR + 30 * 60_000)).toEqual({ hours: 2, checks: before.length });
    expect(await rawRows(db)).toBe(0);
    expect(await partitions(db, "check_results")).toEqual([hourPartition(T0 + 2 * HOUR), hourPartition(T0 + 3 * HOUR), "check_results_default"]);
    expect(await partitions(db, "check_blocks")).toEqual([dayPartition(T0)]);
    expect((await db.rows(sql`SELECT monitor_id, hour_start FROM check_blocks ORDER BY 1, 2`)).length).toBe(4);
    expect(await all(db)).toEqual(before);

    // The newest and oldest reads reach into the blocks.
    const ofTwo = before.filter((c) => c.monitor_id === 2);
    expect(await db.rows<Check>(sql`SELECT * FROM ${newestChecks(db.engine, 2, 3)} AS c`)).toEqual(ofTwo.slice(-3).reverse());
    expect((await db.rows<{ t: number }>(sql`SELECT ${oldestCheckTime(db.engine, 2)} AS t`))[0]!.t).toBe(ofTwo[0]!.time);
    const newestOf = async () => (await newestOfEach(db, 1, 2)).sort((x, y) => x.monitor_id - y.monitor_id).map((c) => [c.monitor_id, c.time]);
    expect(await newestOf()).toEqual([1, 2].map((id) => [id, before.filter((c) => c.monitor_id === id).at(-1)!.time]));
    // A newer raw check comes first.
    await insert(db, [{ ...ofTwo.at(-1)!, time: T0 + 2 * HOUR + 5 }]);
    expect(await newestOf()).toEqual([[1, before.filter((c) => c.monitor_id === 1).at(-1)!.time], [2, T0 + 2 * HOUR + 5]]);
    expect((await db.rows<Check>(sql`SELECT * FROM ${newestChecks(db.engine, 2, 2)} AS c`)).map((c) => c.time)).toEqual([T0 + 2 * HOUR + 5, ofTwo.at(-1)!.time]);
    // Packing again finds nothing new to pack.
    expect(await packing.pack(T0 + 2 * HOUR + 30 * 60_000)).toEqual({ hours: 0, checks: 0 });
  });

  test("a late check for a packed hour joins its block; a check already packed keeps its values", async () => {
    const db = await withMonitors(1);
    const packing = createCheckPacking(db);
    const first = checksOf(1, T0, 60_000);
    await insert(db, first);
    await packing.pack(T0 + 2 * HOUR);
    // An import (or a node far behind) writes into the packed hour: one new check, one the block already has.
    await insert(db, [{ ...first[0]!, time: T0 + 30_000 }, { ...first[1]!, up: !first[1]!.up, error: "changed" }]);
    expect(await packing.pack(T0 + 2 * HOUR)).toEqual({ hours: 1, checks: 61 });
    const after = await all(db);
    expect(after).toHaveLength(61);
    expect(after).toEqual([...first, { ...first[0]!, time: T0 + 30_000 }].sort((a, b) => a.time - b.time));
    expect(await rawRows(db)).toBe(0);
  });

  test("an hour the default partition already holds rows of gets no partition; its rows stay readable", async () => {
    const db = await withMonitors(1);
    const packing = createCheckPacking(db);
    await insert(db, checksOf(1, T0 + 5 * HOUR, 600_000));
    expect(await packing.ensureHours(T0 + 5 * HOUR + 60_000)).toBe(2);
    expect(await partitions(db, "check_results")).toEqual([hourPartition(T0 + 6 * HOUR), hourPartition(T0 + 7 * HOUR), "check_results_default"]);
    expect(await all(db)).toHaveLength(6);
  });

  test("retention drops whole days of blocks, and says how many checks went", async () => {
    const db = await withMonitors(1);
    const packing = createCheckPacking(db);
    for (const hour of [T0 + 22 * HOUR, T0 + 23 * HOUR, T0 + DAY, T0 + DAY + HOUR]) await insert(db, checksOf(1, hour, 60_000));
    await packing.pack(T0 + DAY + 2 * HOUR);
    expect(await partitions(db, "check_blocks")).toEqual([dayPartition(T0), dayPartition(T0 + DAY)]);
    // A cutoff inside the second day drops the first only.
    expect(await packing.dropDays(T0 + DAY + 90 * 60_000)).toBe(120);
    expect(await partitions(db, "check_blocks")).toEqual([dayPartition(T0 + DAY)]);
    expect((await all(db)).map((c) => c.time)[0]).toBe(T0 + DAY + 17);
  });

  test("a packed hour costs well under 50 bytes a check on disk (table, indexes and TOAST, after VACUUM)", async () => {
    const db = await withMonitors(200);
    const packing = createCheckPacking(db);
    const checks: Check[] = [];
    for (let m = 1; m <= 200; m++) {
      for (let h = 0; h < 6; h++) {
        for (let i = 0; i < 60; i++) {
          checks.push({ monitor_id: m, time: T0 + h * HOUR + i * 60_000 + m, up: true, response_time: 30 + ((i * m) % 90), http_status: 200, error: null, maintenance: false, ping: null });
        }
      }
    }
    await insert(db, checks);
    await packing.pack(T0 + 6 * HOUR);
    await db.exec(sql`VACUUM ANALYZE check_blocks`);
    const [{ bytes }] = await db.rows<{ bytes: number }>(
      sql`SELECT sum(pg_total_relation_size(inhrelid))::bigint AS bytes FROM pg_inherits WHERE inhparent = to_regclass('check_blocks')`,
    );
    expect(bytes / checks.length).toBeLessThan(50);
    expect(await all(db)).toHaveLength(checks.length);
  });
});

describe.skipIf(testEngine !== "postgres")("the migration to packed checks (PostgreSQL)", () => {
  test("a populated database keeps every check: the old table becomes the default partition, then is packed", async () => {
    const { url, schema, drop } = await testSchema();
    cleanups.push(drop);
    // The migrations up to the one before packing, as an older Vigil left the database.
    const dir = mkdtempSync(join(tmpdir(), "vigil-pg-migrations-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const source = join(import.meta.dir, "../db/migrations-pg");
    const journal = JSON.parse(readFileSync(join(source, "meta/_journal.json"), "utf8"));
    const index = journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith("_packed_checks"));
    expect(index).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, index);
    mkdirSync(join(dir, "meta"));
    writeFileSync(join(dir, "meta/_journal.json"), JSON.stringify(journal));
    for (const f of readdirSync(source).filter((f) => f.endsWith(".sql"))) copyFileSync(join(source, f), join(dir, f));
    const client = new BunSQL({ url: url.replace(/[?&]schema=[^&]*/, ""), max: 1, connection: { search_path: schema } });
    await migrate(drizzle({ client }), { migrationsFolder: dir, migrationsSchema: schema, migrationsTable: "__drizzle_migrations" });
    await client.unsafe(`INSERT INTO monitors (id, name, settings, interval, timeout, created_at, updated_at) VALUES (1, 'a', '{"url":"http://a.test/"}', 1, 10, 0, 0)`);
    const now = Date.now();
    const times = Array.from({ length: 500 }, (_, i) => now - 3 * DAY + i * 10 * 60_000).filter((t) => t <= now);
    for (const t of times) await client`INSERT INTO check_results (monitor_id, time, up, response_time, http_status) VALUES (1, ${t}, ${t % 3 !== 0}, 42, 200)`;
    await client.close();

    const db = await openDatabase(url, { max: 2, idleTimeout: 1 });
    opened.push(db);
    expect(await partitions(db, "check_results")).toEqual(["check_results_default"]);
    const read = async () => (await all(db)).map((c) => [c.time, c.up]);
    const expected = times.map((t) => [t, t % 3 !== 0]);
    expect(await read()).toEqual(expected);
    const packing = createCheckPacking(db);
    await packing.ensureHours(now);
    const packed = await packing.pack(Math.floor(now / HOUR) * HOUR - HOUR);
    expect(packed.checks).toBeGreaterThan(400);
    expect(await read()).toEqual(expected);
    expect(await rawRows(db)).toBe(times.length - packed.checks);
  });
});
