import { expect, test } from "bun:test";
import { openDatabase } from "../db/open";
import { fakeClock } from "../test-support";
import { createWriter } from "./writer";

function setup(options: Parameters<typeof createWriter>[1] = {}) {
  const db = openDatabase(":memory:");
  const clock = fakeClock();
  db.$client.run("INSERT INTO monitors (id, name, url, interval, timeout, created_at, updated_at) VALUES (1, 'a', 'http://a.test/', 1, 10, 0, 0)");
  const writer = createWriter(db, { clock, ...options });
  const count = () => (db.$client.query("SELECT count(*) AS n FROM check_results").get() as { n: number }).n;
  const outcome = (time: number) => ({ time, up: true, responseTime: 5, httpStatus: 200, error: null });
  return { db, clock, writer, count, outcome };
}

test("a full batch is written at once; a partial one on the tick", async () => {
  const { clock, writer, count, outcome } = setup({ batchSize: 100, flushMs: 1000 });
  for (let i = 0; i < 150; i++) writer.addResult(1, outcome(i));
  await clock.advance(0);
  expect(count()).toBe(150);
  expect(writer.stats().flushes).toBe(1);
  writer.addResult(1, outcome(1000));
  await clock.advance(999);
  expect(count()).toBe(150);
  await clock.advance(1);
  expect(count()).toBe(151);
});

test("a result for a monitor deleted meanwhile is dropped, not failing the batch", async () => {
  const { db, writer, count, outcome } = setup();
  writer.addResult(1, outcome(1));
  writer.addResult(2, outcome(2)); // no monitor 2
  writer.flush();
  expect(count()).toBe(1);
  db.$client.run("DELETE FROM monitors WHERE id = 1");
  writer.addResult(1, outcome(3));
  expect(writer.flush()).toBe(1);
  expect(count()).toBe(0);
});

test("when the database refuses a write, the rows stay queued and are written later", async () => {
  const { db, clock, writer, count, outcome } = setup({ flushMs: 1000 });
  db.$client.run("CREATE TRIGGER refuse BEFORE INSERT ON check_results BEGIN SELECT RAISE(ABORT, 'disk full'); END");
  writer.addResult(1, outcome(1));
  writer.saveState(1, { status: "up", statusChangedAt: 1, consecutiveFailures: 0, lastCheckedAt: 1, lastResponseTime: 5, lastHttpStatus: 200, lastError: null, tlsExpiresAt: null, lastPushAt: null });
  expect(writer.flush()).toBe(0);
  expect(writer.stats()).toMatchObject({ queued: 1, pendingStates: 1, failures: 1 });
  db.$client.run("DROP TRIGGER refuse");
  await clock.advance(5000);
  expect(count()).toBe(1);
  expect(db.$client.query("SELECT status FROM monitors").get()).toEqual({ status: "up" });
});
