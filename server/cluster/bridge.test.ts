import { afterEach, describe, expect, test } from "bun:test";
import type { Db } from "../db/database";
import { openPostgres } from "../db/postgres";
import { TEST_DATABASE_URL, testDb, testSchema } from "../db/test-db";
import { createBridge, type Bridge } from "./bridge";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Two nodes: two connections to one database, each with its bridge. */
async function twoNodes() {
  const schema = await testSchema();
  const db = await openPostgres(schema.url, { max: 2 });
  const other = await openPostgres(schema.url, { max: 2 });
  const a = createBridge({ db, batchMs: 5 });
  const b = createBridge({ db: other, batchMs: 5 });
  cleanups.push(schema.drop, () => db.close(), () => other.close(), () => a.stop(), () => b.stop());
  await a.start();
  await b.start();
  return { a, b };
}

const received = (bridge: Bridge, kind: string) => {
  const got: unknown[] = [];
  bridge.on(kind, (d) => got.push(d));
  return got;
};
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await Bun.sleep(10);
};

describe.skipIf(!TEST_DATABASE_URL)("cluster events over LISTEN/NOTIFY", () => {
  test("what one node publishes reaches the other, in order; a node does not hear itself", async () => {
    const { a, b } = await twoNodes();
    const atB = received(b, "monitor.check");
    const atA = received(a, "monitor.check");
    for (let i = 0; i < 5; i++) a.publish("monitor.check", { monitorId: i, up: i % 2 === 0 });
    await a.flush();
    await until(() => atB.length === 5);
    expect(atB).toEqual([0, 1, 2, 3, 4].map((i) => ({ monitorId: i, up: i % 2 === 0 })));
    await Bun.sleep(50);
    expect(atA).toEqual([]);
  });

  test("a burst larger than one NOTIFY is split, nothing lost; a message too large for any is dropped, not the rest", async () => {
    const { a, b } = await twoNodes();
    const atB = received(b, "monitor.check");
    const error = "x".repeat(150);
    for (let i = 0; i < 1000; i++) a.publish("monitor.check", { monitorId: i, error });
    a.publish("monitor.check", { huge: "y".repeat(9000) });
    a.publish("monitor.check", { monitorId: 1000, error });
    await a.flush();
    await until(() => atB.length === 1001);
    expect(atB.length).toBe(1001);
    expect((atB as { monitorId: number }[]).map((m) => m.monitorId)).toEqual(Array.from({ length: 1001 }, (_, i) => i));
    expect(a.stats().notifies).toBeGreaterThan(20);
  });
});

describe.skipIf(!TEST_DATABASE_URL)("instances in two schemas of one database", () => {
  // They share the NOTIFY channel: one's check results were once applied to the other's monitor of the same id.
  test("are two clusters: neither hears the other", async () => {
    const one = await testSchema();
    const two = await testSchema();
    const dbs = [await openPostgres(one.url, { max: 2 }), await openPostgres(two.url, { max: 2 })];
    const [a, b] = dbs.map((db) => createBridge({ db, batchMs: 5 }));
    cleanups.push(one.drop, two.drop, () => dbs[0]!.close(), () => dbs[1]!.close(), () => a!.stop(), () => b!.stop());
    await a!.start();
    await b!.start();
    const atB = received(b!, "monitor.check");
    a!.publish("monitor.check", { monitorId: 1, up: true });
    await a!.flush();
    await Bun.sleep(300);
    expect(atB).toEqual([]);
  });
});

describe("on SQLite", () => {
  test("there is no other node: publishing does nothing", async () => {
    if (TEST_DATABASE_URL) return;
    const db: Db = await testDb();
    const bridge = createBridge({ db });
    await bridge.start();
    bridge.publish("monitor.check", { monitorId: 1 });
    await bridge.flush();
    expect(bridge.enabled).toBe(false);
    expect(bridge.stats().notifies).toBe(0);
    await db.close();
  });
});
