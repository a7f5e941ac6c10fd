import { afterEach, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { defaultFields } from "./field-rules";
import { HOUR } from "./history";
import { bump, createMonitorStore, heartbeat, newRing, uptime24h } from "./store";
import { countRows, insertResults } from "./test-db";
import { checkRows } from "./check-rows";
import { createCheckPacking } from "./packing";

const H = Math.floor(Date.UTC(2026, 0, 5) / HOUR); // an hour number
/** `minute` minutes into hour H + h. */
const at = (h: number, minute = 0) => (H + h) * HOUR + minute * 60_000;
const none = (n: number) => Array.from({ length: n }, (): [number, number] => [0, 0]);

describe("the hourly ring", () => {
  test("checks over several hours: each hour's counts, uptime over 24 hours with the 25th back pro rata; older hours go", () => {
    const ring = newRing();
    bump(ring, at(0, 10), true);
    bump(ring, at(0, 20), false);
    bump(ring, at(0, 30), true);
    bump(ring, at(1, 5), true);
    bump(ring, at(5, 0), false);
    bump(ring, at(5, 40), false);
    // Oldest first, the current hour (H+5) last: H+1 four hours back, H five.
    expect(heartbeat(ring, at(5, 45))).toEqual([...none(18), [3, 2], [1, 1], [0, 0], [0, 0], [0, 0], [2, 0]]);
    expect(uptime24h(ring, at(5, 45))).toBe(50); // 3 up of 6

    // Half-way through H+24: H is out of the heartbeat and counts half in the uptime ((1 + 1) / (1.5 + 1 + 2)).
    expect(heartbeat(ring, at(24, 30))).toEqual([[1, 1], [0, 0], [0, 0], [0, 0], [2, 0], ...none(19)]);
    expect(uptime24h(ring, at(24, 30))).toBe(44.44);

    // Nothing for 30 hours, then one failed check: only it is left.
    bump(ring, at(30, 15), false);
    expect(heartbeat(ring, at(30, 15))).toEqual([...none(23), [1, 0]]);
    expect(uptime24h(ring, at(30, 15))).toBe(0);
  });

  test("a gap of 25 hours or more clears every hour; without checks there is no uptime", () => {
    const ring = newRing();
    for (let h = 0; h <= 24; h++) bump(ring, at(h, 30), true);
    expect(heartbeat(ring, at(24, 40))).toEqual(Array.from({ length: 24 }, (): [number, number] => [1, 1]));
    expect(uptime24h(ring, at(24, 40))).toBe(100);
    bump(ring, at(50), false);
    expect(heartbeat(ring, at(50, 1))).toEqual([...none(23), [1, 0]]);
    expect(uptime24h(ring, at(50, 1))).toBe(0);

    // Exactly 25 hours on, the same slot starts from nothing.
    const other = newRing();
    bump(other, at(0, 10), true);
    bump(other, at(25, 10), false);
    expect(heartbeat(other, at(25, 20))).toEqual([...none(23), [1, 0]]);
    expect(uptime24h(other, at(25, 20))).toBe(0);
    // Read more than 24 hours after the last check: nothing.
    expect(uptime24h(other, at(51))).toBeNull();
    expect(heartbeat(other, at(51))).toEqual(none(24));
    expect(uptime24h(newRing(), at(0))).toBeNull();
  });

  test("a late check counts in its own hour if the ring still holds it; an older one is dropped, not put over a newer hour", () => {
    const ring = newRing();
    bump(ring, at(5, 0), true);
    bump(ring, at(10, 0), true);
    bump(ring, at(2, 30), false); // 8 hours late
    bump(ring, at(-20, 0), false); // 30 hours late: H-20 shares H+5's slot
    expect(heartbeat(ring, at(10, 5))).toEqual([...none(15), [1, 0], [0, 0], [0, 0], [1, 1], ...none(4), [1, 1]]);
    expect(uptime24h(ring, at(10, 5))).toBe(66.66);
  });

  test("counts stop at 65 535 rather than wrap, keeping the proportion counted so far", () => {
    const ring = newRing();
    for (let i = 0; i < 70_000; i++) bump(ring, at(0, 1), true);
    expect(heartbeat(ring, at(0, 2)).at(-1)).toEqual([65_535, 65_535]);

    const mixed = newRing();
    for (let i = 0; i < 40_000; i++) bump(mixed, at(0, 1), false);
    for (let i = 0; i < 30_000; i++) bump(mixed, at(0, 2), true);
    expect(heartbeat(mixed, at(0, 3)).at(-1)).toEqual([65_535, 25_535]);
    // The next hour starts from nothing; the full one stays as it is.
    bump(mixed, at(1, 0), true);
    expect(heartbeat(mixed, at(1, 1)).slice(-2)).toEqual([[65_535, 25_535], [1, 1]]);
    expect(uptime24h(mixed, at(1, 1))).toBe(38.96); // 25 536 / 65 536
  });
});

const opened: Db[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

async function setup() {
  const db = await testDb();
  opened.push(db);
  return { db, store: createMonitorStore(db) };
}

describe("the monitor store", () => {
  test("load reads every monitor in chunks, each with its latest result, hourly counters and push token", async () => {
    const { db, store } = await setup();
    const n = 4005; // two full chunks and a part
    const rows = Array.from({ length: n }, (_, i) => ({
      name: `m${i + 1}`,
      settings: { url: `http://127.0.0.1:1/m/${i + 1}` },
      intervalSeconds: 60,
      timeoutMs: 10_000,
      createdAt: at(0),
      updatedAt: at(0),
      ...((i + 1) % 1000 === 0 ? { type: "push" as const, pushToken: `token-${i + 1}`, settings: { pushGrace: 60 } } : {}),
    }));
    for (let i = 0; i < n; i += 500) await db.orm.insert(db.t.monitors).values(rows.slice(i, i + 500));
    // Hours before H+1 are rolled up; raw results from H+1 on count, earlier ones only as the latest result.
    await db.orm.insert(db.t.settings).values({ key: "monitors.rollup.hourly", value: String(at(1)) });
    const rollup = (monitorId: number, checks: number, up: number) => ({ monitorId, bucketStart: at(0), checks, up, down: checks - up, rtSum: 0, rtCount: 0 });
    await db.orm.insert(db.t.monitorHourly).values([rollup(2001, 100_000, 50_000), rollup(4001, 10, 7)]);
    const result = (monitorId: number, time: number, up: boolean) => ({ monitorId, time, up, responseTime: up ? 12 : null, httpStatus: up ? 200 : 500, error: up ? null : "boom" });
    await insertResults(db, [result(1, at(1, 5), true), result(1, at(1, 10), false), result(2000, at(0, 30), true), result(2001, at(1, 1), true), result(4005, at(1, 20), true)]);

    const now = at(1, 30);
    await store.load(now);
    expect(store.size).toBe(n);
    expect(store.all().map((e) => e.id)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    const pub = (id: number) => store.toPublic(store.get(id)!, now);
    expect(pub(1)).toMatchObject({ status: "pending", lastCheckedAt: at(1, 10), lastError: "boom", httpStatus: 500, uptime24h: 50 });
    expect(pub(1).heartbeat).toEqual([...none(23), [2, 1]]);
    expect(pub(2000)).toMatchObject({ lastCheckedAt: at(0, 30), responseTime: 12, uptime24h: null });
    expect(pub(2001).heartbeat.slice(-2)).toEqual([[65_535, 32_768], [1, 1]]);
    expect(pub(4001).heartbeat.slice(-2)).toEqual([[10, 7], [0, 0]]);
    expect(store.uptime24h(store.get(4001)!, now)).toBe(70);
    expect(pub(4005)).toMatchObject({ lastCheckedAt: at(1, 20), uptime24h: 100, name: "m4005", url: "http://127.0.0.1:1/m/4005", method: "GET", expectedStatus: "2xx" });
    for (const id of [1000, 2000, 3000, 4000]) expect(store.byPushToken(`token-${id}`)?.id).toBe(id);

    // A check goes to the counters as before.
    store.apply(store.get(4001)!, { time: at(1, 40), up: false, responseTime: null, httpStatus: null, error: "boom" });
    expect(pub(4001).heartbeat.slice(-2)).toEqual([[10, 7], [1, 0]]);
    expect(store.uptime24h(store.get(4001)!, at(1, 45))).toBe(63.63);
  });

  test("removing a monitor deletes its checks, rows and (PostgreSQL) packed hours, and no other monitor's", async () => {
    const { db, store } = await setup();
    const fields = { ...defaultFields(), settings: { url: "http://127.0.0.1:1/" } };
    const [a, b] = [await store.create({ ...fields, name: "a" }, at(0)), await store.create({ ...fields, name: "b" }, at(0))];
    const result = (monitorId: number, time: number) => ({ monitorId, time, up: true, responseTime: 5, httpStatus: 200, error: null });
    await insertResults(db, [a, b].flatMap((m) => [result(m.id, at(0, 5)), result(m.id, at(0, 10)), result(m.id, at(2, 5))]));
    // On PostgreSQL hour H is packed into check_blocks, hour H+2 stays as rows.
    if (db.engine === "postgres") expect((await createCheckPacking(db).pack(at(2))).checks).toBe(4);
    const checksOf = async (id: number) =>
      Number((await db.rows<{ n: number }>(sql`SELECT count(*) AS n FROM ${checkRows(db.engine, null)} WHERE monitor_id = ${id}`))[0]!.n);
    expect([await checksOf(a.id), await checksOf(b.id)]).toEqual([3, 3]);

    expect(await store.remove(a.id)).toBe(true);
    expect([await checksOf(a.id), await checksOf(b.id)]).toEqual([0, 3]);
    if (db.engine === "postgres") expect(await countRows(db, "check_blocks")).toBe(1);
    expect(await store.remove(a.id)).toBe(false);
  });

  test("a monitor created, edited or removed while load() reads keeps what was written (a cluster node's re-read)", async () => {
    const { store } = await setup();
    const fields = { ...defaultFields(), settings: { url: "http://127.0.0.1:1/" } };
    const [kept, edited, removed] = [await store.create({ ...fields, name: "kept" }), await store.create({ ...fields, name: "edit me" }), await store.create({ ...fields, name: "remove me" })];
    await store.load();
    const loading = store.load();
    const created = await store.create({ ...fields, name: "new" });
    await store.update(edited.id, { ...edited.fields, name: "edited" });
    await store.remove(removed.id);
    await loading;
    expect(store.all().map((e) => [e.id, e.fields.name])).toEqual([[kept.id, "kept"], [edited.id, "edited"], [created.id, "new"]]);
    expect(store.get(edited.id)).toBeDefined();
    await store.load(); // and as the database has them
    expect(store.all().map((e) => [e.id, e.fields.name])).toEqual([[kept.id, "kept"], [edited.id, "edited"], [created.id, "new"]]);
  });

  test("a re-read keeps each monitor's object and memory's newer state; a newer state in the rows wins", async () => {
    const { db, store } = await setup();
    const fields = { ...defaultFields(), retries: 0, settings: { url: "http://127.0.0.1:1/" } };
    const mine = await store.create({ ...fields, name: "checked here" });
    const theirs = await store.create({ ...fields, name: "checked elsewhere" });
    await store.load();
    const before = store.get(mine.id)!;
    // A check recorded here while the rows are read (its state not written yet): memory's state stays.
    const loading = store.load();
    store.apply(before, { time: Date.now(), up: false, responseTime: null, httpStatus: null, error: "connection refused" });
    await loading;
    expect(store.get(mine.id)).toBe(before);
    expect(store.get(mine.id)!.state).toMatchObject({ status: "down", consecutiveFailures: 1 });
    expect(store.get(mine.id)!.failingSince).not.toBeNull();
    // Another node checked and wrote a state this node never heard of: the re-read takes it.
    await db.orm.update(db.t.monitors).set({ status: "down", statusChangedAt: Date.now(), lastCheckedAt: Date.now() + 1000, consecutiveFailures: 1 }).where(eq(db.t.monitors.id, theirs.id));
    await store.load();
    expect(store.get(theirs.id)!.state).toMatchObject({ status: "down", consecutiveFailures: 1 });
  });

  test("monitors without tags or headers share one frozen empty list; those with some keep their own", async () => {
    const { store } = await setup();
    const a = await store.create({ ...defaultFields(), name: "a", url: "http://a.test/" });
    const b = await store.create({ ...defaultFields(), name: "b", url: "http://b.test/", tags: ["x"], headers: [{ name: "X-A", value: "1" }] });
    const c = await store.create({ ...defaultFields(), name: "c", url: "http://c.test/" });
    expect(a.fields.tags).toBe(c.fields.tags);
    expect(a.fields.headers).toBe(c.fields.headers);
    expect(Object.isFrozen(a.fields.tags) && Object.isFrozen(a.fields.headers)).toBe(true);
    expect(b.fields).toMatchObject({ tags: ["x"], headers: [{ name: "X-A", value: "1" }] });
    expect(store.toPublic(a)).toMatchObject({ tags: [], headers: [] });

    const updated = await store.update(b.id, { ...b.fields, tags: [], headers: [] });
    expect(updated!.fields.tags).toBe(a.fields.tags);
    await store.load();
    expect(store.get(b.id)!.fields.tags).toEqual([]);
    expect(store.get(b.id)!.fields.headers).toBe(store.get(c.id)!.fields.headers);
  });
});
