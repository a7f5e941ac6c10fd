// Personal contact channels and quiet hours over the API (SQLite, or PostgreSQL when VIGIL_TEST_DATABASE_URL is set):
// a viewer keeps their own; nobody else reads, edits, tests or deletes them (404); the team's replies never show them
// or their config; settings, policies and report schedules refuse them, and a personal mail server is not the status
// pages'; a personal push channel reaches its owner only; the escalation's contactChannelsOf; deleting the account
// takes them along.
import { afterEach, describe, expect, test } from "bun:test";
import { startFake, type Fake } from "../notifications/providers/test-fake";
import type { PublicChannel } from "../notifications/public";
import { CONTACT_CHANNELS_MAX } from "../notifications/store";
import { testApp } from "../test-support";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A secret no team reply may carry. */
const SECRET = "personal-signing-secret-7f3a9c";

async function setup() {
  const fake: Fake = startFake(() => new Response("ok"));
  cleanups.push(() => fake.stop());
  const t = await testApp();
  cleanups.push(() => t.db.close());
  const admin = await t.signUp("alice");
  const bob = await t.signUp("bob");
  const vera = await t.signUp("vera");
  expect((await t.call("PUT", `/api/users/${vera.user.id}`, { token: admin.token, body: { username: "vera", role: "viewer" } })).status).toBe(200);
  const as = (who: { token: string }) => <T = Record<string, any>>(method: string, path: string, body?: unknown) => t.call<T>(method, path, { token: who.token, body });
  return { t, fake, admin, bob, vera, asAdmin: as(admin), asBob: as(bob), asVera: as(vera) };
}

describe("personal contact channels", () => {
  test("a viewer keeps their own: add, list, read masked, edit, test, delete", async () => {
    const s = await setup();
    const made = await s.asVera<{ channel: PublicChannel }>("POST", "/api/me/channels", { name: "My hook", type: "webhook", config: { url: `${s.fake.url}/vera`, secret: SECRET } });
    expect(made.status).toBe(201);
    const { id } = made.body.channel;
    expect(made.body.channel.config.secret).not.toBe(SECRET);
    expect(JSON.stringify(made.body)).not.toContain(SECRET);

    const list = await s.asVera<{ channels: PublicChannel[] }>("GET", "/api/me/channels");
    expect(list.body.channels.map((c) => c.name)).toEqual(["My hook"]);
    expect(JSON.stringify(list.body)).not.toContain(SECRET);

    // The masked secret sent back keeps the stored one (the test send signs with it).
    const edited = await s.asVera<{ channel: PublicChannel }>("PUT", `/api/me/channels/${id}`, { name: "Phone hook", config: { url: `${s.fake.url}/vera`, secret: made.body.channel.config.secret } });
    expect(edited.status).toBe(200);
    expect(edited.body.channel.name).toBe("Phone hook");
    expect((await s.asVera("POST", `/api/me/channels/${id}/test`)).status).toBe(200);
    expect(s.fake.received).toHaveLength(1);
    expect(s.fake.received[0]!.headers["x-vigil-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);

    expect((await s.asVera("DELETE", `/api/me/channels/${id}`)).status).toBe(200);
    expect((await s.asVera("GET", `/api/me/channels/${id}`)).status).toBe(404);
  });

  test("someone else's channel is not found for every action; the team's routes neither show nor reach it", async () => {
    const s = await setup();
    const { id } = (await s.asVera<{ channel: PublicChannel }>("POST", "/api/me/channels", { name: "Vera's", type: "webhook", config: { url: `${s.fake.url}/vera`, secret: SECRET } })).body.channel;
    const team = (await s.asAdmin<{ channel: PublicChannel }>("POST", "/api/notifications/channels", { name: "Team", type: "webhook", config: { url: `${s.fake.url}/team` } })).body.channel;

    for (const as of [s.asBob, s.asAdmin]) {
      expect((await as("GET", `/api/me/channels/${id}`)).status).toBe(404);
      expect((await as("PUT", `/api/me/channels/${id}`, { name: "Mine now" })).status).toBe(404);
      expect((await as("POST", `/api/me/channels/${id}/test`)).status).toBe(404);
      expect((await as("DELETE", `/api/me/channels/${id}`)).status).toBe(404);
      expect((await as<{ channels: unknown[] }>("GET", "/api/me/channels")).body.channels).toEqual([]);
    }
    // A team channel is not anyone's own either.
    expect((await s.asVera("GET", `/api/me/channels/${team.id}`)).status).toBe(404);
    expect((await s.asAdmin("PUT", `/api/me/channels/${team.id}`, { name: "Mine" })).status).toBe(404);
    expect(s.fake.received).toHaveLength(0);

    // The team's routes: 404 for it, and nothing of it in any reply (its test send is in the owner's log only).
    expect((await s.asVera("POST", `/api/me/channels/${id}/test`)).status).toBe(200);
    expect((await s.asAdmin("GET", `/api/notifications/channels/${id}`)).status).toBe(404);
    expect((await s.asAdmin("PUT", `/api/notifications/channels/${id}`, { name: "Taken" })).status).toBe(404);
    expect((await s.asAdmin("POST", `/api/notifications/channels/${id}/test`)).status).toBe(404);
    expect((await s.asAdmin("DELETE", `/api/notifications/channels/${id}`)).status).toBe(404);
    expect((await s.asAdmin("GET", `/api/notifications/deliveries?channelId=${id}`)).status).toBe(404);
    const replies = [
      await s.asAdmin("GET", "/api/notifications/channels"),
      await s.asAdmin("GET", "/api/notifications/deliveries"),
      await s.asAdmin("GET", "/api/notifications/settings"),
      await s.asAdmin("GET", "/api/config/export?withSecrets=true"),
    ];
    for (const r of replies) {
      expect(r.status).toBe(200);
      const text = JSON.stringify(r.body);
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain("Vera's");
      expect(text).not.toContain("/vera");
    }
    expect((await s.asAdmin<{ channels: PublicChannel[] }>("GET", "/api/notifications/channels")).body.channels.map((c) => c.id)).toEqual([team.id]);
    expect((await s.asVera<{ channels: PublicChannel[] }>("GET", "/api/me/channels")).body.channels[0]!.health.lastSuccessAt).not.toBeNull();
  });

  test("settings, overrides, escalation steps and report schedules refuse a personal channel with a clear 400", async () => {
    const s = await setup();
    const { id } = (await s.asVera<{ channel: PublicChannel }>("POST", "/api/me/channels", { name: "Vera's", type: "webhook", config: { url: `${s.fake.url}/vera` } })).body.channel;
    const settings = (await s.asAdmin<{ settings: Record<string, any> }>("GET", "/api/notifications/settings")).body.settings;
    const global = await s.asAdmin("PUT", "/api/notifications/settings", { ...settings, monitor: { ...settings.monitor, channelIds: [id] } });
    expect(global.status).toBe(400);
    expect(global.body).toMatchObject({ success: false, code: "CHANNEL_PERSONAL" });
    expect(global.body.message).toContain("someone's own contact channel");

    const monitor = await s.asAdmin<{ monitor: { id: number } }>("POST", "/api/monitors", { name: "Shop", url: "http://127.0.0.1:9/" });
    const override = await s.asAdmin("PUT", `/api/notifications/settings/monitors/${monitor.body.monitor.id}`, { enabled: true, channelIds: [id], events: { down: true, recovery: true } });
    expect(override.status).toBe(400);
    expect(override.body.code).toBe("CHANNEL_PERSONAL");

    const policy = await s.asAdmin("POST", "/api/escalation-policies", { name: "On call", steps: [{ channelIds: [id], waitMinutes: 5 }] });
    expect(policy.status).toBe(400);
    expect(policy.body).toMatchObject({ code: "CHANNEL_PERSONAL" });

    const smtp = (await s.asVera<{ channel: PublicChannel }>("POST", "/api/me/channels", { name: "My mail", type: "smtp", config: { host: "127.0.0.1", port: 2525, security: "none", from: "v@example.com", to: ["v@example.com"] } })).body.channel;
    const schedule = await s.asAdmin("POST", "/api/report-schedules", { name: "Monthly", targetKind: "monitor", targetRef: String(monitor.body.monitor.id), zone: "UTC", channelId: smtp.id, recipients: ["boss@example.com"] });
    expect(schedule.status).toBe(400);
    expect(schedule.body.code).toBe("CHANNEL_NOT_FOUND");
    // Nor does someone's own mail server mail the status page's subscribers.
    expect((await s.t.call<any>("GET", "/api/status/pages/default/subscriptions")).body.available).toBe(false);
    await s.asAdmin("POST", "/api/notifications/channels", { name: "Team mail", type: "smtp", config: { host: "127.0.0.1", port: 2525, security: "none", from: "ops@example.com", to: ["ops@example.com"] } });
    expect((await s.t.call<any>("GET", "/api/status/pages/default/subscriptions")).body.available).toBe(true);
  });

  test("a personal push channel reaches its owner's devices only, whatever is sent", async () => {
    const s = await setup();
    const made = await s.asVera<{ channel: PublicChannel }>("POST", "/api/me/channels", { name: "My phone", type: "webpush", config: { userIds: [s.admin.user.id, s.bob.user.id] } });
    expect(made.status).toBe(201);
    expect(made.body.channel.config).toEqual({ userIds: [s.vera.user.id] });
    const role = await s.asVera<{ channel: PublicChannel }>("PUT", `/api/me/channels/${made.body.channel.id}`, { config: { role: "admin" } });
    expect(role.body.channel.config).toEqual({ userIds: [s.vera.user.id] });
    // And so it is sent, even were the stored config otherwise.
    await s.t.db.orm.update(s.t.db.t.notificationChannels).set({ config: { role: "admin" } });
    expect((await s.t.services.notifications.store.channelForSending(made.body.channel.id))!.config).toEqual({ userIds: [s.vera.user.id] });
  });

  test(`at most ${CONTACT_CHANNELS_MAX} each; bad input is a 400 naming the problem`, async () => {
    const s = await setup();
    const hook = (n: number) => ({ name: `Hook ${n}`, type: "webhook", config: { url: `${s.fake.url}/${n}` } });
    for (let n = 0; n < CONTACT_CHANNELS_MAX; n++) expect((await s.asBob("POST", "/api/me/channels", hook(n))).status).toBe(201);
    const over = await s.asBob("POST", "/api/me/channels", hook(99));
    expect(over.status).toBe(409);
    expect(over.body.code).toBe("CONTACT_CHANNELS_LIMIT");
    // Someone else's count is theirs.
    expect((await s.asVera("POST", "/api/me/channels", hook(1))).status).toBe(201);

    const bad = [
      [{ type: "webhook", config: { url: `${s.fake.url}/x` } }, "CHANNEL_NAME_REQUIRED"],
      [{ name: "X", type: "fax", config: {} }, "VALIDATION"],
      [{ name: "X", type: "webhook", config: {} }, "WEBHOOK_URL_REQUIRED"],
      [{ name: "X", type: "webhook", config: { url: `${s.fake.url}/x` }, quietHours: { from: "25:00", to: "07:00", timeZone: "UTC" } }, "QUIET_HOURS_INVALID"],
    ] as const;
    for (const [body, code] of bad) {
      const res = await s.asVera("POST", "/api/me/channels", body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code });
    }
  });
});

describe("quiet hours over the API", () => {
  test("a channel's own, on team and personal channels; a person's, kept per person", async () => {
    const s = await setup();
    const night = { from: "22:00", to: "07:00", timeZone: "Europe/Berlin", days: [5, 1, 1], holdDown: true };
    const team = await s.asAdmin<{ channel: PublicChannel }>("POST", "/api/notifications/channels", { name: "Team", type: "webhook", config: { url: `${s.fake.url}/t` }, quietHours: night });
    expect(team.body.channel.quietHours).toEqual({ ...night, days: [1, 5] });
    // Absent keeps them; null turns them off.
    expect((await s.asAdmin<{ channel: PublicChannel }>("PUT", `/api/notifications/channels/${team.body.channel.id}`, { name: "Team 2" })).body.channel.quietHours).toEqual({ ...night, days: [1, 5] });
    expect((await s.asAdmin<{ channel: PublicChannel }>("PUT", `/api/notifications/channels/${team.body.channel.id}`, { quietHours: null })).body.channel.quietHours).toBeNull();
    const wrong = await s.asAdmin("PUT", `/api/notifications/channels/${team.body.channel.id}`, { quietHours: { ...night, timeZone: "Nowhere/Land" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain("quietHours.timeZone");

    const own = await s.asVera<{ channel: PublicChannel }>("POST", "/api/me/channels", { name: "Mine", type: "webhook", config: { url: `${s.fake.url}/v` }, quietHours: { from: "23:00", to: "06:30", timeZone: "UTC" } });
    expect(own.body.channel.quietHours).toEqual({ from: "23:00", to: "06:30", timeZone: "UTC", holdDown: false });

    expect((await s.asVera("GET", "/api/me/quiet-hours")).body).toEqual({ success: true, quietHours: null });
    const saved = await s.asVera("PUT", "/api/me/quiet-hours", { quietHours: { from: "21:00", to: "08:00", timeZone: "Asia/Shanghai", days: [1, 2, 3, 4, 5] } });
    expect(saved.status).toBe(200);
    expect(saved.body.quietHours).toEqual({ from: "21:00", to: "08:00", timeZone: "Asia/Shanghai", days: [1, 2, 3, 4, 5], holdDown: false });
    expect((await s.asVera("GET", "/api/me/quiet-hours")).body.quietHours).toEqual(saved.body.quietHours);
    expect((await s.asBob("GET", "/api/me/quiet-hours")).body.quietHours).toBeNull();
    for (const body of [{}, { quietHours: { from: "21:00", to: "21:00", timeZone: "UTC" } }, { quietHours: "21:00-08:00" }]) {
      const res = await s.asVera("PUT", "/api/me/quiet-hours", body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await s.asVera("PUT", "/api/me/quiet-hours", { quietHours: null })).body.quietHours).toBeNull();
    expect((await s.asVera("GET", "/api/me/quiet-hours")).body.quietHours).toBeNull();
  });
});

describe("what escalation reads", () => {
  test("contactChannelsOf: each person's enabled channels, oldest first; none for a disabled account; deleting the account takes them", async () => {
    const s = await setup();
    const add = async (as: typeof s.asVera, name: string, enabled = true) =>
      (await as<{ channel: PublicChannel }>("POST", "/api/me/channels", { name, type: "webhook", enabled, config: { url: `${s.fake.url}/${name}` } })).body.channel.id;
    const v1 = await add(s.asVera, "v1");
    await add(s.asVera, "v-off", false);
    const v2 = await add(s.asVera, "v2");
    const b1 = await add(s.asBob, "b1");
    await s.asAdmin("POST", "/api/notifications/channels", { name: "Team", type: "webhook", config: { url: `${s.fake.url}/team` } });
    const { store } = s.t.services.notifications;
    const of = async (ids: number[]) => Object.fromEntries(await store.contactChannelsOf(ids));
    expect(await of([s.vera.user.id, s.bob.user.id, s.admin.user.id])).toEqual({ [s.vera.user.id]: [v1, v2], [s.bob.user.id]: [b1], [s.admin.user.id]: [] });
    expect(await of([])).toEqual({});

    expect((await s.asAdmin("PUT", `/api/users/${s.bob.user.id}`, { username: "bob", status: "disabled" })).status).toBe(200);
    expect(await of([s.bob.user.id])).toEqual({ [s.bob.user.id]: [] });

    await s.asVera("PUT", "/api/me/quiet-hours", { quietHours: { from: "21:00", to: "08:00", timeZone: "UTC" } });
    expect((await s.asAdmin("DELETE", `/api/users/${s.vera.user.id}`)).status).toBe(200);
    const left = await s.t.db.orm.select().from(s.t.db.t.notificationChannels);
    expect(left.map((c) => c.name).sort()).toEqual(["Team", "b1"]);
    expect(await s.t.db.orm.select().from(s.t.db.t.userQuietHours)).toEqual([]);
  });
});
