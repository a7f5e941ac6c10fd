import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { fakeClock } from "../test-support";
import { countRows } from "./test-db";
import { createMonitorStore } from "./store";
import { createWriter } from "./writer";

async function setup(options: Parameters<typeof createWriter>[1] = {}) {
  const db = await testDb();
  const clock = fakeClock();
  await db.exec(sql`INSERT INTO monitors (id, name, settings, interval, timeout, created_at, updated_at) VALUES (1, 'a', '{"url":"http://a.test/"}', 1, 10, 0, 0)`);
  const writer = createWriter(db, { clock, ...options });
  const count = () => countRows(db, "check_results");
  const outcome = (time: number) => ({ time, up: true, responseTime: 5, httpStatus: 200, error: null });
  return { db, clock, writer, count, outcome };
}

/** Makes every insert into check_results fail, as a full disk would; returns how to undo it. */
async function refuseInserts(db: Db): Promise<() => Promise<void>> {
  if (db.engine === "sqlite") {
    await db.exec(sql`CREATE TRIGGER refuse BEFORE INSERT ON check_results BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    return async () => void (await db.exec(sql`DROP TRIGGER refuse`));
  }
  await db.exec(sql.raw(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`));
  await db.exec(sql`CREATE TRIGGER refuse BEFORE INSERT ON check_results FOR EACH ROW EXECUTE FUNCTION refuse()`);
  return async () => void (await db.exec(sql`DROP TRIGGER refuse ON check_results`));
}

test("a full batch is written at once; a partial one on the tick", async () => {
  const { db, clock, writer, count, outcome } = await setup({ batchSize: 100, flushMs: 1000 });
  for (let i = 0; i < 150; i++) writer.addResult(1, outcome(i));
  await clock.advance(0);
  await writer.idle();
  expect(await count()).toBe(150);
  expect(writer.stats().flushes).toBe(1);
  writer.addResult(1, outcome(1000));
  await clock.advance(999);
  await writer.idle();
  expect(await count()).toBe(150);
  await clock.advance(1);
  await writer.idle();
  expect(await count()).toBe(151);
  await db.close();
});

test("two checks of a monitor started in the same millisecond are both kept, the later one moved a millisecond on", async () => {
  const { db, writer, outcome } = await setup();
  const times = async () => (await db.rows<{ time: number; error: string | null }>(sql`SELECT time, error FROM check_results WHERE monitor_id = 1 ORDER BY time`)).map((r) => [Number(r.time), r.error]);
  writer.addResult(1, outcome(5));
  writer.addResult(1, { ...outcome(5), up: false, error: "manual" });
  writer.addResult(2, outcome(5)); // no monitor 2: dropped, not retried forever
  expect(await writer.flush()).toBe(3);
  expect(await times()).toEqual([[5, null], [6, "manual"]]);
  // Against rows already stored, in a later batch.
  writer.addResult(1, { ...outcome(5), error: "again" });
  writer.addResult(1, outcome(9));
  await writer.flush();
  expect(await times()).toEqual([[5, null], [6, "manual"], [7, "again"], [9, null]]);
  expect(writer.stats().failures).toBe(0);
  await db.close();
});

test("a result for a monitor deleted meanwhile is dropped, not failing the batch", async () => {
  const { db, writer, count, outcome } = await setup();
  writer.addResult(1, outcome(1));
  writer.addResult(2, outcome(2)); // no monitor 2
  await writer.flush();
  expect(await count()).toBe(1);
  // Deleted as the API deletes it (on PostgreSQL the store deletes its checks: they have no foreign key there).
  expect(await createMonitorStore(db).remove(1)).toBe(true);
  writer.addResult(1, outcome(3));
  expect(await writer.flush()).toBe(1);
  expect(await count()).toBe(0);
  expect(writer.stats().failures).toBe(0);
  await db.close();
});

test("when the database refuses a write, the rows stay queued and are written later", async () => {
  const { db, clock, writer, count, outcome } = await setup({ flushMs: 1000 });
  const allow = await refuseInserts(db);
  writer.addResult(1, outcome(1));
  writer.saveState(1, { status: "up", statusChangedAt: 1, consecutiveFailures: 0, lastCheckedAt: 1, lastResponseTime: 5, lastHttpStatus: 200, lastError: null, tlsExpiresAt: null, lastPushAt: null });
  expect(await writer.flush()).toBe(0);
  expect(writer.stats()).toMatchObject({ queued: 1, pendingStates: 1, failures: 1 });
  // The state was not written either: one transaction.
  expect(await db.rows(sql`SELECT status FROM monitors`)).toEqual([{ status: "pending" }]);
  await allow();
  await clock.advance(5000);
  await writer.idle();
  expect(await count()).toBe(1);
  expect(await db.rows(sql`SELECT status FROM monitors`)).toEqual([{ status: "up" }]);
  await db.close();
});

test("one flush at a time: results queued during a flush go in the next, and a flush waits for both", async () => {
  const { db, writer, count, outcome } = await setup();
  writer.addResult(1, outcome(1));
  const first = writer.flush();
  writer.addResult(1, outcome(2));
  writer.addResult(1, outcome(3));
  const second = writer.flush();
  const third = writer.flush(); // shares the second
  expect(await first).toBe(1);
  expect(await second).toBe(2);
  expect(await third).toBe(2);
  expect(await count()).toBe(3);
  expect(writer.stats()).toMatchObject({ written: 3, flushes: 2 });
  await db.close();
});

test("every field of results and states round-trips, nulls and awkward text included; large batches in one go", async () => {
  const { db, writer } = await setup({ batchSize: 100_000 });
  const error = `status 500: "quoted", {braced}, back\\slash, comma, NULL, ünïcode\nnew line`;
  writer.addResult(1, { time: 10, up: false, responseTime: null, httpStatus: null, error });
  writer.addResult(1, { time: 11, up: true, responseTime: 2 ** 40, httpStatus: 204, error: null });
  for (let i = 0; i < 12_000; i++) writer.addResult(1, { time: 100 + i, up: i % 3 > 0, responseTime: i, httpStatus: 200, error: null });
  const state = { status: "down" as const, statusChangedAt: 1_767_571_200_123, consecutiveFailures: 3, lastCheckedAt: 1_767_571_200_456, lastResponseTime: null, lastHttpStatus: 503, lastError: error, tlsExpiresAt: 2 ** 45, lastPushAt: null };
  writer.saveState(1, state);
  expect(await writer.flush()).toBe(12_002);
  const rows = await db.rows<{ time: number; up: unknown; response_time: number | null; http_status: number | null; error: string | null }>(
    sql`SELECT time, up, response_time, http_status, error FROM check_results WHERE time < 100 ORDER BY time`,
  );
  expect(rows.map((r) => ({ ...r, up: Boolean(r.up) }))).toEqual([
    { time: 10, up: false, response_time: null, http_status: null, error },
    { time: 11, up: true, response_time: 2 ** 40, http_status: 204, error: null },
  ]);
  const [{ n, up }] = await db.rows<{ n: number; up: number }>(sql`SELECT count(*) AS n, sum(CASE WHEN up THEN 1 ELSE 0 END) AS up FROM check_results WHERE time >= 100`);
  expect([n, up]).toEqual([12_000, 8000]);
  expect(await db.rows(sql`SELECT status, status_changed_at, consecutive_failures, last_checked_at, last_response_time, last_http_status, last_error, tls_expires_at, last_push_at FROM monitors`)).toEqual([
    { status: "down", status_changed_at: state.statusChangedAt, consecutive_failures: 3, last_checked_at: state.lastCheckedAt, last_response_time: null, last_http_status: 503, last_error: error, tls_expires_at: 2 ** 45, last_push_at: null },
  ]);
  await db.close();
});

test("a flush during another transaction is not tied to it: that one's rollback keeps the results", async () => {
  const { db, writer, count, outcome } = await setup();
  writer.addResult(1, outcome(1));
  let flushed: Promise<number> | undefined;
  const failed = db.tx(async (tx) => {
    await db.exec(sql`UPDATE monitors SET name = 'renamed'`, tx);
    flushed = writer.flush(); // not awaited here: on SQLite it waits for this transaction to end
    await db.exec(sql`UPDATE monitors SET retries = 2`, tx);
    throw new Error("rolled back");
  });
  expect(failed).rejects.toThrow("rolled back");
  await failed.catch(() => {});
  expect(await flushed!).toBe(1);
  expect(await count()).toBe(1);
  expect(await db.rows(sql`SELECT name FROM monitors`)).toEqual([{ name: "a" }]);
  await db.close();
});
