// The outbox under quiet hours, on a fake clock (SQLite, or PostgreSQL when VIGIL_TEST_DATABASE_URL is set): low events
// wait as rows — no message, no attempt — while high ones behind them go at once; the tick says to look again at the
// period's end, and then the held events leave grouped, once. With holdDown everything waits and keeps its order. A
// person's quiet hours hold their own channels; a team channel is not held by anyone's.
import { afterEach, describe, expect, test } from "bun:test";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { createOutbox } from "./outbox";
import { startFake, type Fake } from "./providers/test-fake";
import type { NotificationEvent, QuietHours } from "./public";
import { createNotificationStore } from "./store";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const utc = (iso: string) => Date.parse(`${iso}Z`);
const NIGHT: QuietHours = { from: "22:00", to: "07:00", timeZone: "UTC", holdDown: false };
const down = (name: string, at: number): NotificationEvent => ({ kind: "down", target: { type: "monitor", id: 1, name }, time: at, facts: { error: "HTTP 503" } });
const cpu = (name: string, at: number): NotificationEvent => ({ kind: "cpu", target: { type: "agent", id: 2, name }, time: at, facts: { usage: 97, threshold: 90, hostname: name } });

/** Each message the fake received: the names of its events, in order. */
const messages = (fake: Fake) => fake.received.map((r) => (r.json as { events: { target: { name: string } }[] }).events.map((e) => e.target.name));

async function setup(start: string) {
  const db: Db = await testDb();
  cleanups.push(() => db.close());
  const fake = startFake(() => new Response("ok"));
  cleanups.push(() => fake.stop());
  let clock = utc(start);
  const now = () => clock;
  const store = createNotificationStore(db, now);
  const outbox = createOutbox({ db, store, now, ctx: { fetch, timeoutMs: 2_000, endpoints: { telegram: "http://127.0.0.1:9", resend: "http://127.0.0.1:9" }, now } });
  const hook = { name: "Hook", type: "webhook", config: { url: `${fake.url}/hook` } };
  const unsent = async () =>
    (await db.orm.select().from(db.t.notificationEvents)).filter((e) => e.messageId === null).map((e) => ({ name: e.event.target.name, importance: e.importance }));
  /** Ticks as the running outbox would (it looks again at once after a send): returns its next look. */
  const tick = async () => {
    let next = await outbox.tick();
    for (let i = 0; i < 10 && next !== null && next <= clock; i++) next = await outbox.tick();
    return next;
  };
  return { db, fake, store, outbox, hook, unsent, tick, at: (iso: string) => void (clock = utc(iso)), now };
}

describe("quiet hours in the outbox", () => {
  test("a low event waits while a high one behind it goes at once; at the end the held ones leave grouped, once", async () => {
    const s = await setup("2026-01-05T23:00");
    const channel = await s.store.createChannel({ ...s.hook, quietHours: NIGHT });
    expect(await s.outbox.enqueue([channel.id], cpu("db-1", s.now()), "cpu-1")).toBe(1);
    expect(await s.outbox.enqueue([channel.id], down("Shop", s.now()), "down-1")).toBe(1);
    s.at("2026-01-05T23:00:01"); // past the gathering

    // The down alert goes; the tick's next look is the quiet hours' end.
    expect(await s.tick()).toBe(utc("2026-01-06T07:00"));
    expect(messages(s.fake)).toEqual([["Shop"]]);
    expect(await s.unsent()).toEqual([{ name: "db-1", importance: "low" }]);

    // Another low one joins the wait; nothing leaves before 07:00, and nothing is counted as tried or failed.
    s.at("2026-01-06T03:00");
    await s.outbox.enqueue([channel.id], cpu("db-2", s.now()), "cpu-2");
    s.at("2026-01-06T06:59:59");
    expect(await s.tick()).toBe(utc("2026-01-06T07:00"));
    expect(messages(s.fake)).toHaveLength(1);
    const log = await s.store.deliveries({ channelId: channel.id });
    expect(log.map((d) => ({ status: d.status, attempts: d.attempts }))).toEqual([{ status: "sent", attempts: 1 }]);
    expect((await s.store.getChannel(channel.id)).health.consecutiveFailures).toBe(0);
    expect(await s.outbox.backlog()).toEqual({ messages: 0, events: 2 });

    s.at("2026-01-06T07:00");
    expect(await s.tick()).toBeNull();
    expect(messages(s.fake)).toEqual([["Shop"], ["db-1", "db-2"]]);
    // Once: the same keys queued again are ignored, and another pass sends nothing.
    expect(await s.outbox.enqueue([channel.id], cpu("db-1", s.now()), "cpu-1")).toBe(0);
    s.at("2026-01-06T07:05");
    expect(await s.tick()).toBeNull();
    expect(messages(s.fake)).toHaveLength(2);
    expect(await s.unsent()).toEqual([]);
  });

  test("holdDown: down alerts wait too, and everything leaves in the order it came", async () => {
    const s = await setup("2026-01-05T22:30");
    const channel = await s.store.createChannel({ ...s.hook, quietHours: { ...NIGHT, holdDown: true } });
    await s.outbox.enqueue([channel.id], cpu("db-1", s.now()), "cpu-1");
    await s.outbox.enqueue([channel.id], down("Shop", s.now()), "down-1");
    s.at("2026-01-05T22:31");
    expect(await s.tick()).toBe(utc("2026-01-06T07:00"));
    expect(s.fake.received).toHaveLength(0);
    s.at("2026-01-06T07:00:00.500");
    await s.tick();
    expect(messages(s.fake)).toEqual([["db-1", "Shop"]]);
  });

  test("outside the hours nothing waits; a channel without quiet hours never holds", async () => {
    const s = await setup("2026-01-05T12:00");
    const quiet = await s.store.createChannel({ ...s.hook, name: "Quiet", quietHours: NIGHT });
    const plain = await s.store.createChannel({ ...s.hook, name: "Plain" });
    await s.outbox.enqueue([quiet.id], cpu("noon", s.now()), "cpu-noon");
    s.at("2026-01-05T12:00:01");
    await s.tick();
    expect(messages(s.fake)).toEqual([["noon"]]);
    s.at("2026-01-05T23:00");
    await s.outbox.enqueue([plain.id], cpu("night", s.now()), "cpu-night");
    s.at("2026-01-05T23:00:01");
    expect(await s.tick()).toBeNull();
    expect(messages(s.fake)).toEqual([["noon"], ["night"]]);
  });

  test("a person's quiet hours hold their own channels (with the channel's own: quiet when either says so), not the team's", async () => {
    const s = await setup("2026-01-06T06:30");
    const [person] = await s.db.orm.insert(s.db.t.users).values({ username: "pat", passwordHash: "h", createdAt: 0, updatedAt: 0 }).returning();
    await s.store.saveUserQuietHours(person!.id, { from: "06:00", to: "08:00", timeZone: "UTC" });
    const own = await s.store.createChannel({ ...s.hook, name: "Pat's hook", quietHours: NIGHT }, person!.id);
    const team = await s.store.createChannel({ ...s.hook, name: "Team" });
    await s.outbox.enqueue([own.id, team.id], cpu("db-1", s.now()), "cpu-1");
    s.at("2026-01-06T06:30:01");
    // The channel's night ends at 07:00, the person's morning at 08:00: held until 08:00.
    expect(await s.tick()).toBe(utc("2026-01-06T08:00"));
    expect(s.fake.received).toHaveLength(1); // the team's copy
    s.at("2026-01-06T07:30");
    expect(await s.tick()).toBe(utc("2026-01-06T08:00"));
    s.at("2026-01-06T08:00");
    await s.tick();
    expect(s.fake.received).toHaveLength(2);
    // Turned off: nothing more of the person's holds.
    expect(await s.store.saveUserQuietHours(person!.id, null)).toBeNull();
    expect(await s.store.userQuietHours(person!.id)).toBeNull();
  });
});
