import { afterEach, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { reopenableDb } from "../monitors/test-db";
import { testApp } from "../test-support";
import type { PushDeviceView, PushRecipient } from "./public";
import { PUSH_DEVICES_PER_USER_MAX } from "./public";
import { createPushService } from "./service";
import { startPushService, type PushServiceFake } from "./test-push-service";
import { VAPID_SETTING } from "./vapid";

// /api/webpush on the engine under test: the server's VAPID key (made once, shared, kept), each person's devices
// (subscribe, list, move, remove, test), the checks on what a browser sends, and who may do what.

const opened: { db: Db; services?: Services }[] = [];
let service: PushServiceFake | undefined;
afterEach(async () => {
  service?.stop();
  service = undefined;
  for (const { db, services } of opened.splice(0)) {
    await services?.notifications.stop().catch(() => {});
    await db.close().catch(() => {});
  }
});

async function setup({ loopback = true, block = false } = {}) {
  const db = await testDb();
  const services = await createServices(db, { push: { allowLoopbackHttp: loopback }, targets: { allowPrivate: !block }, notifications: { send: { timeoutMs: 2_000 } } });
  opened.push({ db, services });
  const t = await testApp({ db, services });
  const alice = await t.signUp("alice"); // the admin
  const bob = await t.signUp("bob"); // an editor
  service = startPushService();
  const subscribe = (token: string, body: unknown, headers: Record<string, string> = {}) => t.call<{ device: PushDeviceView }>("POST", "/api/webpush/subscriptions", { token, body, headers });
  const list = async (token: string) => (await t.call<{ devices: PushDeviceView[] }>("GET", "/api/webpush/subscriptions", { token })).body.devices;
  return { ...t, db, services, alice, bob, push: service, subscribe, list };
}

describe("the VAPID key", () => {
  test("made once and kept in the database: the same after a restart, and for two nodes that ask at the same moment", async () => {
    const { open, cleanup } = await reopenableDb();
    try {
      const [a, b] = [await open(), await open()];
      const [keyA, keyB] = await Promise.all([createPushService({ db: a }).publicKey(), createPushService({ db: b }).publicKey()]);
      expect(keyA).toBe(keyB);
      expect(Buffer.from(keyA, "base64url")).toHaveLength(65);
      const rows = await a.rows<{ value: string }>(sql`SELECT value FROM settings WHERE key = ${VAPID_SETTING}`);
      expect(rows).toHaveLength(1);
      await Promise.all([a.close(), b.close()]);
      const restarted = await open();
      expect(await createPushService({ db: restarted }).publicKey()).toBe(keyA);
      await restarted.close();
    } finally {
      await cleanup();
    }
  });

  test("any signed-in person gets the public key; the private key is in no reply", async () => {
    const t = await setup();
    expect((await t.call("GET", "/api/webpush/key")).status).toBe(401);
    const reply = await t.call<{ publicKey: string }>("GET", "/api/webpush/key", { token: t.bob.token });
    expect(reply.status).toBe(200);
    const stored = JSON.parse((await t.db.orm.select().from(t.db.t.settings).where(eq(t.db.t.settings.key, VAPID_SETTING)))[0]!.value);
    expect(reply.body.publicKey).toBe(stored.publicKey);
    await t.subscribe(t.bob.token, t.push.device().subscription);
    for (const path of ["/api/webpush/key", "/api/webpush/subscriptions", "/api/webpush/recipients", "/api/notifications/settings"]) {
      const text = JSON.stringify((await t.call("GET", path, { token: t.alice.token })).body);
      expect(text).not.toContain(stored.privateKey);
    }
  });
});

describe("devices", () => {
  test("subscribe (201), list your own, subscribe again (200, updated), remove (404 after)", async () => {
    const t = await setup();
    const phone = t.push.device("phone");
    const created = await t.subscribe(t.bob.token, { ...phone.subscription, label: "  Chrome on Android\n" });
    expect(created.status).toBe(201);
    expect(created.body.device).toMatchObject({ label: "Chrome on Android", endpoint: phone.subscription.endpoint, service: new URL(t.push.url).host, lastSuccessAt: null, lastError: null });
    expect(await t.list(t.bob.token)).toEqual([created.body.device]);
    expect(await t.list(t.alice.token)).toEqual([]);

    const again = await t.subscribe(t.bob.token, { ...phone.subscription, label: "Phone" });
    expect(again.status).toBe(200);
    expect(again.body.device).toMatchObject({ id: created.body.device.id, label: "Phone" });
    // No label: the User-Agent names it.
    const laptop = await t.subscribe(t.bob.token, t.push.device().subscription, { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0" });
    expect(laptop.body.device.label).toBe("Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0");
    expect((await t.list(t.bob.token)).map((d) => d.label)).toEqual(["Phone", laptop.body.device.label]);

    const id = created.body.device.id;
    expect((await t.call("DELETE", `/api/webpush/subscriptions/${id}`, { token: t.alice.token })).status).toBe(404); // not hers
    expect((await t.call("POST", `/api/webpush/subscriptions/${id}/test`, { token: t.alice.token })).status).toBe(404);
    expect((await t.call("DELETE", `/api/webpush/subscriptions/${id}`, { token: t.bob.token })).status).toBe(200);
    expect((await t.call("DELETE", `/api/webpush/subscriptions/${id}`, { token: t.bob.token })).body).toMatchObject({ success: false, code: "PUSH_DEVICE_NOT_FOUND" });
    expect((await t.list(t.bob.token)).map((d) => d.id)).toEqual([laptop.body.device.id]);
  });

  test("a browser subscribed by someone else moves to whoever subscribed it last", async () => {
    const t = await setup();
    const shared = t.push.device().subscription;
    await t.subscribe(t.bob.token, shared);
    expect((await t.subscribe(t.alice.token, shared)).status).toBe(200);
    expect(await t.list(t.bob.token)).toEqual([]);
    expect((await t.list(t.alice.token)).map((d) => d.endpoint)).toEqual([shared.endpoint]);
  });

  test("a test push reaches the device, decrypted to the test message; a gone device is removed and the test fails", async () => {
    const t = await setup();
    const phone = t.push.device("phone");
    const { id } = (await t.subscribe(t.bob.token, { ...phone.subscription, label: "Phone" })).body.device;
    await t.call("PUT", "/api/notifications/settings", { token: t.alice.token, body: { ...(await t.call<{ settings: object }>("GET", "/api/notifications/settings", { token: t.alice.token })).body.settings, language: "en-US" } });
    const sent = await t.call("POST", `/api/webpush/subscriptions/${id}/test`, { token: t.bob.token });
    expect(sent.status).toBe(200);
    expect(t.push.rejected).toEqual([]);
    expect(t.push.received).toHaveLength(1);
    expect(t.push.received[0]!.payload).toMatchObject({ title: "✅ Vigil test message: Phone", severity: "info", url: "/profile" });
    expect(t.push.received[0]!.vapidKey).toBe((await t.call<{ publicKey: string }>("GET", "/api/webpush/key", { token: t.bob.token })).body.publicKey);
    expect((await t.list(t.bob.token))[0]!.lastSuccessAt).toBeNumber();

    t.push.answer(() => new Response(null, { status: 500 }));
    const failed = await t.call("POST", `/api/webpush/subscriptions/${id}/test`, { token: t.bob.token });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: "PROVIDER_ERROR", message: expect.stringContaining("HTTP 500") });
    expect((await t.list(t.bob.token))[0]!.lastError).toContain("HTTP 500");

    t.push.answer(() => new Response(null, { status: 410 }));
    const gone = await t.call("POST", `/api/webpush/subscriptions/${id}/test`, { token: t.bob.token });
    expect(gone.status).toBe(502);
    expect(gone.body.message).toContain("the device was removed");
    expect(await t.list(t.bob.token)).toEqual([]);
  });

  test("deleting a person deletes their devices", async () => {
    const t = await setup();
    await t.subscribe(t.bob.token, t.push.device().subscription);
    expect((await t.call("DELETE", `/api/users/${t.bob.user.id}`, { token: t.alice.token })).status).toBe(200);
    expect(await t.db.rows(sql`SELECT id FROM push_subscriptions`)).toEqual([]);
  });
});

describe("what a browser sends is checked", () => {
  test("an https endpoint (http://127.0.0.1 only where the server allows it), keys of the right size and curve", async () => {
    const t = await setup({ loopback: false });
    const good = t.push.device().subscription;
    const https = { ...good, endpoint: "https://push.example.com/wpush/v2/abc" };
    const refuse = async (body: unknown, code: string) => {
      const res = await t.subscribe(t.bob.token, body);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code });
    };
    await refuse(good, "PUSH_ENDPOINT_INVALID"); // http, and this server does not allow it
    await refuse({ ...https, endpoint: "not a url" }, "PUSH_ENDPOINT_INVALID");
    await refuse({ ...https, endpoint: "ftp://push.example.com/x" }, "PUSH_ENDPOINT_INVALID");
    await refuse({ ...https, endpoint: "https://user:pw@push.example.com/x" }, "PUSH_ENDPOINT_INVALID");
    await refuse({ ...https, endpoint: `https://push.example.com/${"a".repeat(2100)}` }, "VALIDATION");
    await refuse({ ...https, keys: { ...https.keys, p256dh: https.keys.p256dh.slice(0, 40) } }, "PUSH_KEYS_INVALID");
    // 65 bytes starting with 0x04, but not a point on P-256.
    await refuse({ ...https, keys: { ...https.keys, p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString("base64url") } }, "PUSH_KEYS_INVALID");
    await refuse({ ...https, keys: { ...https.keys, p256dh: "not base64url!" } }, "PUSH_KEYS_INVALID");
    await refuse({ ...https, keys: { ...https.keys, auth: Buffer.alloc(8).toString("base64url") } }, "PUSH_KEYS_INVALID");
    await refuse({ endpoint: https.endpoint }, "VALIDATION");
    await refuse({ ...https, keys: { p256dh: 5, auth: https.keys.auth } }, "VALIDATION");
    await refuse({ ...https, label: "x".repeat(1000) }, "VALIDATION");
    // Padded base64url is taken (and kept unpadded); a long label is cut.
    const ok = await t.subscribe(t.bob.token, { ...https, keys: { p256dh: `${https.keys.p256dh}=`, auth: `${https.keys.auth}==` }, label: "é".repeat(150) });
    expect(ok.status).toBe(201);
    expect(Array.from(ok.body.device.label)).toHaveLength(100);
    const row = (await t.db.rows<{ p256dh: string }>(sql`SELECT p256dh FROM push_subscriptions`))[0]!;
    expect(row.p256dh).toBe(https.keys.p256dh);
  });

  test("--block-private-targets refuses a loopback endpoint as written", async () => {
    const t = await setup({ block: true });
    const res = await t.subscribe(t.bob.token, t.push.device().subscription);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("TARGET_FORBIDDEN");
  });

  test(`at most ${PUSH_DEVICES_PER_USER_MAX} devices a person; a known one may still subscribe again`, async () => {
    const t = await setup();
    const devices = Array.from({ length: PUSH_DEVICES_PER_USER_MAX }, () => t.push.device().subscription);
    for (const d of devices) expect((await t.subscribe(t.bob.token, d)).status).toBe(201);
    const over = await t.subscribe(t.bob.token, t.push.device().subscription);
    expect(over.status).toBe(409);
    expect(over.body.code).toBe("PUSH_DEVICES_LIMIT");
    expect((await t.subscribe(t.bob.token, devices[0])).status).toBe(200);
  });
});

describe("who may", () => {
  test("a viewer turns push on for their own devices; an API token cannot; recipients are for editors", async () => {
    const t = await setup();
    const carol = await t.signUp("carol");
    expect((await t.call("PUT", `/api/users/${carol.user.id}`, { token: t.alice.token, body: { username: "carol", role: "viewer" } })).status).toBe(200);
    const viewer = await t.login("carol");
    const created = await t.subscribe(viewer.token, t.push.device().subscription);
    expect(created.status).toBe(201);
    expect((await t.call("POST", `/api/webpush/subscriptions/${created.body.device.id}/test`, { token: viewer.token })).status).toBe(200);
    expect((await t.call("DELETE", `/api/webpush/subscriptions/${created.body.device.id}`, { token: viewer.token })).status).toBe(200);
    expect((await t.call("GET", "/api/webpush/recipients", { token: viewer.token })).status).toBe(403);

    const apiToken = (await t.call<{ secret: string }>("POST", "/api/tokens", { token: t.bob.token, body: { name: "ci", scope: "write" } })).body.secret;
    const byToken = await t.subscribe(apiToken, t.push.device().subscription);
    expect(byToken.status).toBe(403);
    expect(byToken.body.message).toBe("API tokens cannot do this: sign in to Vigil to do it");
    expect((await t.call("GET", "/api/webpush/key", { token: apiToken })).status).toBe(200);

    await t.subscribe(t.bob.token, t.push.device().subscription);
    const recipients = await t.call<{ recipients: PushRecipient[] }>("GET", "/api/webpush/recipients", { token: t.bob.token });
    expect(recipients.body.recipients).toEqual([
      { id: t.alice.user.id, username: "alice", role: "admin", devices: 0 },
      { id: t.bob.user.id, username: "bob", role: "editor", devices: 1 },
      { id: carol.user.id, username: "carol", role: "viewer", devices: 0 },
    ]);
  });
});
