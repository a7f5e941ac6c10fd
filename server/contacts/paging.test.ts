// A person paged by escalation, in the wired services (SQLite, or PostgreSQL when VIGIL_TEST_DATABASE_URL is set): a
// step that names people reaches each through their enabled contact channels (a disabled one is skipped), and a
// person's quiet hours that hold down alerts too keep their page waiting while the others get it at once.
import { afterEach, expect, test } from "bun:test";
import { isNull } from "drizzle-orm";
import { escalationInstance } from "../escalation/test-instance";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

test("a step naming people pages them through their own enabled channels; one person's quiet hours hold theirs", async () => {
  const t = await escalationInstance(cleanups);
  const { hook, db, advance, now } = t;
  const admin = await t.signUp("alice");
  const vera = await t.signUp("vera");
  const bob = await t.signUp("bob");
  const own = (who: { token: string }, name: string, enabled = true) =>
    t.call<{ channel: { id: number } }>("POST", "/api/me/channels", { token: who.token, body: { name, type: "webhook", enabled, config: { url: `${hook.url}/${name}` } } });
  expect((await own(vera, "vera")).status).toBe(201);
  expect((await own(vera, "vera-off", false)).status).toBe(201);
  expect((await own(bob, "bob")).status).toBe(201);
  // Bob is in quiet hours now, and his hold down alerts too.
  const quiet = { from: hhmm(now() - 3_600_000), to: hhmm(now() + 3_600_000), timeZone: "UTC", holdDown: true };
  expect((await t.call("PUT", "/api/me/quiet-hours", { token: bob.token, body: { quietHours: quiet } })).status).toBe(200);

  const call = (method: string, path: string, body?: unknown) => t.call<Record<string, any>>(method, path, { token: admin.token, body });
  const policy = await call("POST", "/api/escalation-policies", { name: "People", steps: [{ channelIds: [], userIds: [vera.user.id, bob.user.id], waitMinutes: 5 }], isDefault: true });
  expect(policy.status).toBe(201);
  const monitor = (await call("POST", "/api/monitors", { name: "Shop", url: t.targetUrl, retries: 0, active: false })).body.monitor.id;
  expect((await call("POST", `/api/monitors/${monitor}/check`)).status).toBe(200);

  await advance(1_000);

  const paths = hook.received.map((r) => r.path);
  expect(paths).toEqual(["/vera"]);
  expect((hook.received[0]!.json as { events: { kind: string; facts: { escalationStep?: number } }[] }).events[0]).toMatchObject({ kind: "down", facts: { escalationStep: 1 } });
  // Bob's page waits in the outbox for his quiet hours to end.
  const waiting = await db.orm.select().from(db.t.notificationEvents).where(isNull(db.t.notificationEvents.messageId));
  expect(waiting.map((e) => ({ kind: e.event.kind, importance: e.importance }))).toEqual([{ kind: "down", importance: "high" }]);
}, 30_000);
