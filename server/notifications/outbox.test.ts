import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Db } from "../db/database";
import { openPostgres } from "../db/postgres";
import { TEST_DATABASE_URL, testDb, testSchema } from "../db/test-db";
import { createOutbox } from "./outbox";
import type { SendContext } from "./providers/provider";
import { startFake, type Fake } from "./providers/test-fake";
import type { NotificationEvent } from "./public";
import { createNotificationStore } from "./store";

// The outbox's claims: a message is sent by the node that claimed it, once; a claim that outlived its node (the lease
// ran out mid-send) lets another node send it; several nodes on one PostgreSQL database deliver each event once.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const down = (name: string, time: number): NotificationEvent => ({ kind: "down", target: { type: "monitor", id: 1, name }, time, facts: { error: "HTTP 503" } });

function node(db: Db, name: string, ctx: Partial<SendContext>, extra: Partial<Parameters<typeof createOutbox>[0]> = {}) {
  const now = extra.now ?? Date.now;
  const store = createNotificationStore(db, now);
  const outbox = createOutbox({
    db,
    store,
    node: name,
    now,
    ctx: { fetch, timeoutMs: 2_000, endpoints: { telegram: "http://127.0.0.1:9", resend: "http://127.0.0.1:9" }, now, ...ctx },
    ...extra,
  });
  return { store, outbox };
}

const names = (fake: Fake) => fake.received.flatMap((r) => (r.json as { events: { target: { name: string } }[] }).events.map((e) => e.target.name));

describe("claims", () => {
  test("a message claimed by a node that went silent is left alone until the claim runs out, then sent by another", async () => {
    const db = await testDb();
    cleanups.push(() => db.close());
    const fake = startFake(() => new Response("ok"));
    cleanups.push(() => fake.stop());
    let claimTime = 1_000_000;
    const claimClock = async () => claimTime;
    // Node a's request hangs (its process froze mid-send), then fails late.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const a = node(db, "a", { fetch: (async () => (await gate, new Response("late", { status: 500 }))) as unknown as typeof fetch }, { claimClock, claimMs: 60_000 });
    const b = node(db, "b", {}, { claimClock, claimMs: 60_000 });
    const channel = await a.store.createChannel({ name: "Hook", type: "webhook", config: { url: `${fake.url}/hook` } });
    await a.outbox.enqueue([channel.id], down("svc-1", Date.now()), "k1");
    await Bun.sleep(600); // past the gathering

    const stuck = a.outbox.tick(); // claims the message and waits on the request
    for (let i = 0; i < 50 && !(await db.orm.select().from(db.t.notificationMessages)).length; i++) await Bun.sleep(10);
    const [claimed] = await db.orm.select().from(db.t.notificationMessages);
    expect(claimed).toMatchObject({ status: "pending", claimedBy: a.outbox.node, claimedUntil: 1_060_000 });

    await b.outbox.tick(); // a's claim holds: b leaves it
    expect(fake.received).toHaveLength(0);
    claimTime += 60_000; // the claim ran out
    await b.outbox.tick();
    expect(names(fake)).toEqual(["svc-1"]);

    release(); // a's request finally fails: the message stays sent, the channel healthy
    await stuck;
    const [row] = await db.orm.select().from(db.t.notificationMessages).where(eq(db.t.notificationMessages.id, claimed!.id));
    expect(row).toMatchObject({ status: "sent", attempts: 1, claimedBy: null, claimedUntil: null, error: null });
    expect((await b.store.getChannel(channel.id)).health).toMatchObject({ consecutiveFailures: 0, lastError: null });
    expect(await b.outbox.backlog()).toEqual({ messages: 0, events: 0 });
  });
});

describe.skipIf(!TEST_DATABASE_URL)("two nodes on one PostgreSQL database", () => {
  test("draining at the same time, every event reaches its channel exactly once and in order", async () => {
    const { url, drop } = await testSchema();
    cleanups.push(drop);
    const dbA = await openPostgres(url, { max: 4, idleTimeout: 1 });
    cleanups.push(() => dbA.close());
    const dbB = await openPostgres(url, { max: 4, idleTimeout: 1 });
    cleanups.push(() => dbB.close());
    // The receiver is a little slow and refuses one request in five (retried later, by whichever node claims it).
    const accepted: string[][] = [];
    const perChannel = new Map<string, string[]>();
    let calls = 0;
    const fake = startFake(async (request) => {
      await Bun.sleep(2 + Math.random() * 8);
      if (++calls % 5 === 0) return new Response("busy", { status: 503 });
      const carried = (request.json as { events: { target: { name: string } }[] }).events.map((e) => e.target.name);
      accepted.push(carried);
      perChannel.set(request.path, [...(perChannel.get(request.path) ?? []), ...carried]);
      return new Response("ok");
    });
    cleanups.push(() => fake.stop());
    let skew = 0;
    const now = () => Date.now() + skew;
    const sentBy = { a: 0, b: 0 };
    const counting = (who: "a" | "b") => ((input: string | URL | Request, init?: RequestInit) => (sentBy[who]++, fetch(input, init))) as typeof fetch;
    const a = node(dbA, "a", { fetch: counting("a") }, { now });
    const b = node(dbB, "b", { fetch: counting("b") }, { now });

    const CHANNELS = 8;
    const EVENTS = 40;
    const channels: number[] = [];
    for (let c = 0; c < CHANNELS; c++) channels.push((await a.store.createChannel({ name: `hook ${c}`, type: "webhook", config: { url: `${fake.url}/c${c}` } })).id);

    // Round after round: two more events per channel arrive (on either node, some on both: the same key is taken
    // once), then both nodes tick at once, and the clock moves on (retries and pacing fall due).
    let next = 0;
    for (let round = 0; round < 200; round++) {
      for (const end = Math.min(EVENTS, next + 2); next < end; next++) {
        for (const [c, id] of channels.entries()) {
          const event = down(`c${c}-${String(next).padStart(3, "0")}`, now());
          expect(await (next % 2 ? a : b).outbox.enqueue([id], event, `e${next}`)).toBe(1);
          if (next % 7 === 0) expect(await (next % 2 ? b : a).outbox.enqueue([id], event, `e${next}`)).toBe(0);
        }
      }
      const backlog = await a.outbox.backlog();
      if (next === EVENTS && backlog.messages === 0 && backlog.events === 0) break;
      await Promise.all(
        [a, b].map(async (n, i) => {
          await Bun.sleep(Math.random() * 3 + (round % 2 === i ? 0 : 1));
          await n.outbox.tick();
        }),
      );
      skew += 61_000;
    }
    expect(await b.outbox.backlog()).toEqual({ messages: 0, events: 0 });

    const arrived = accepted.flat();
    expect(arrived).toHaveLength(CHANNELS * EVENTS);
    expect(new Set(arrived).size).toBe(CHANNELS * EVENTS);
    // Per channel, in order: each message carries later events than the one before.
    for (let c = 0; c < CHANNELS; c++) {
      const mine = perChannel.get(`/c${c}`) ?? [];
      expect(mine).toHaveLength(EVENTS);
      expect(mine).toEqual([...mine].sort());
    }
    // Both nodes did part of the work; every message ended sent, its claim let go.
    expect(sentBy.a).toBeGreaterThan(0);
    expect(sentBy.b).toBeGreaterThan(0);
    expect(sentBy.a + sentBy.b).toBe(fake.received.length);
    const rows = await dbA.orm.select().from(dbA.t.notificationMessages);
    expect(rows.length).toBeGreaterThan(CHANNELS * 5);
    expect(rows.every((m) => m.status === "sent" && m.claimedBy === null)).toBe(true);
  }, 30_000);
});
