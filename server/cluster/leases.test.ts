import { afterEach, describe, expect, test } from "bun:test";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { BUCKETS, bucketOf, createLeases, fairShares, listNodes, type Leases } from "./leases";

const dbs: Db[] = [];
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close();
});

/** Nodes on one database, with a shared clock the test moves; ticks are driven by hand. */
async function cluster() {
  const db = await testDb();
  dbs.push(db);
  let time = Date.UTC(2026, 10, 1);
  const events: { node: string; gained: number[]; lost: number[] }[] = [];
  const node = (name: string, extra: Partial<Parameters<typeof createLeases>[0]> = {}) =>
    createLeases({
      db,
      node: name,
      version: "test",
      now: async () => time,
      tickMs: 60_000_000, // never on its own: the test calls tick()
      onChange: (c) => void events.push({ node: name, ...c }),
      ...extra,
    });
  /** No bucket is held by two nodes, and each node's idea of what it holds matches the table. */
  const exclusive = async (members: Leases[]) => {
    const seen = new Map<number, number>();
    members.forEach((m, i) => m.buckets().forEach((b) => {
      expect(seen.has(b)).toBe(false);
      seen.set(b, i);
    }));
    const rows = await db.orm.select().from(db.t.clusterLeases);
    for (const r of rows) if (seen.has(r.bucket)) expect(r.expiresAt).toBeGreaterThan(time);
  };
  return { db, node, events, exclusive, advance: (ms: number) => (time += ms), now: () => time };
}

describe("fair shares", () => {
  test("an even split, the remainder to the first names; ids spread over every bucket", () => {
    expect([...fairShares(["c", "a", "b"])]).toEqual([["a", 86], ["b", 85], ["c", 85]]);
    expect([...fairShares(["only"])]).toEqual([["only", BUCKETS]]);
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(257)).toBe(1);
    expect(new Set(Array.from({ length: 512 }, (_, i) => bucketOf(i + 1))).size).toBe(BUCKETS);
  });
});

describe("leases", () => {
  test("one node holds every bucket; a second gets half within two ticks; never a bucket held twice", async () => {
    const c = await cluster();
    const a = c.node("a");
    await a.start();
    expect(a.holding()).toBe(BUCKETS);
    const b = c.node("b");
    await b.start(); // registers; nothing free yet
    expect(b.holding()).toBe(0);
    await c.exclusive([a, b]);
    c.advance(5_000);
    await a.tick(); // over its share: gives half back
    expect(a.holding()).toBe(128);
    await c.exclusive([a, b]);
    await b.tick();
    expect(b.holding()).toBe(128);
    await c.exclusive([a, b]);
    expect(c.events.find((e) => e.node === "a" && e.lost.length === 128)).toBeDefined();
  });

  test("a third node joins: 86/85/85; a node that dies is replaced once its leases expire", async () => {
    const c = await cluster();
    const [a, b, x] = [c.node("a"), c.node("b"), c.node("x")];
    await a.start();
    await b.start();
    await x.start();
    for (let round = 0; round < 3; round++) {
      c.advance(5_000);
      for (const n of [a, b, x]) await n.tick();
    }
    expect([a.holding(), b.holding(), x.holding()]).toEqual([86, 85, 85]);
    await c.exclusive([a, b, x]);

    // x dies (no more ticks). Before its leases expire nobody takes its buckets.
    c.advance(5_000);
    await a.tick();
    await b.tick();
    expect(a.holding() + b.holding()).toBe(171);
    // 15 s after its last renewal its buckets are free; the next ticks share them out.
    c.advance(11_000);
    await a.tick();
    await b.tick();
    c.advance(5_000);
    await a.tick();
    await b.tick();
    expect([a.holding(), b.holding()]).toEqual([128, 128]);
    const nodes = await listNodes(c.db, c.now());
    expect(nodes.map((n) => [n.name, n.live, n.leases])).toEqual([["a", true, 128], ["b", true, 128], ["x", false, 0]]);
  });

  test("nodes starting and ticking at the same moment never get the same bucket", async () => {
    const c = await cluster();
    const members = ["a", "b", "c", "d"].map((n) => c.node(n));
    await Promise.all(members.map((m) => m.start()));
    await c.exclusive(members);
    for (let round = 0; round < 4; round++) {
      c.advance(5_000);
      await Promise.all(members.map((m) => m.tick()));
      await c.exclusive(members);
    }
    expect(members.map((m) => m.holding())).toEqual([64, 64, 64, 64]);
  });

  test("a clean stop releases everything at once: the others take it at their next tick", async () => {
    const c = await cluster();
    const [a, b] = [c.node("a"), c.node("b")];
    await a.start();
    await b.start();
    c.advance(5_000);
    await a.tick();
    await b.tick();
    await b.stop();
    expect(b.holding()).toBe(0);
    c.advance(1_000);
    await a.tick();
    expect(a.holding()).toBe(BUCKETS);
    expect((await listNodes(c.db, c.now())).find((n) => n.name === "b")!.live).toBe(false);
  });

  test("a restarted node does not renew its previous life's leases: it waits for them to expire like anyone", async () => {
    const c = await cluster();
    const first = c.node("a");
    await first.start();
    c.advance(1_000);
    const again = c.node("a"); // same name, new process
    await again.start();
    expect(again.holding()).toBe(0);
    c.advance(15_000);
    await again.tick();
    expect(again.holding()).toBe(BUCKETS);
  });

  test("a node that cannot renew in time stops checking before its leases can expire", async () => {
    const c = await cluster();
    let clock = 0;
    let reachable = true;
    const a = c.node("a", {
      leaseMs: 300,
      monotonic: () => clock,
      now: async () => {
        if (!reachable) throw new Error("connection refused");
        return c.now();
      },
    });
    await a.start();
    expect(a.holding()).toBe(BUCKETS);
    reachable = false;
    await expect(a.tick()).rejects.toThrow("connection refused");
    expect(a.holding()).toBe(BUCKETS); // still within its lease
    clock = 400; // past the lease, less the margin
    await Bun.sleep(350);
    expect(a.holding()).toBe(0);
    expect(c.events.at(-1)).toEqual({ node: "a", gained: [], lost: expect.any(Array) });
    expect(c.events.at(-1)!.lost.length).toBe(BUCKETS);
    await a.stop();
  });

  test("fenced, then renewed in time after all: the node takes its leases up again instead of holding them unchecked", async () => {
    const c = await cluster();
    let clock = 0;
    const a = c.node("a", { leaseMs: 300, monotonic: () => clock });
    await a.start();
    clock = 400; // the renewal looks late to the local clock: fenced…
    await Bun.sleep(350);
    expect(a.holding()).toBe(0);
    await a.tick(); // …but the database still had the leases as a's: renewed, and checked here again
    expect(a.holding()).toBe(BUCKETS);
    expect(c.events.at(-1)).toEqual({ node: "a", gained: expect.any(Array), lost: [] });
    expect(c.events.at(-1)!.gained.length).toBe(BUCKETS);
    await a.stop();
  });
});
