import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { RETRY_DELAYS_MS } from "../notifications/outbox";
import { testApp } from "../test-support";
import type { PushDeviceView } from "./public";
import { startPushService, type PushServiceFake } from "./test-push-service";

// End to end: a real check of a local target fails, the rules queue the alert, the outbox sends it through a webpush
// channel, and the local push service decrypts what reached each device. A movable clock stands in for waiting.

let push: PushServiceFake;
let target: Server;
let targetStatus = 200;
let targetUrl = "";
const opened: { services: Services; db: Db }[] = [];

beforeEach(async () => {
  push = startPushService();
  targetStatus = 200;
  target = createServer((_req, res) => res.writeHead(targetStatus).end("x"));
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
});
afterEach(async () => {
  for (const { services, db } of opened.splice(0)) {
    await services.notifications.stop().catch(() => {});
    await db.close().catch(() => {});
  }
  push.stop();
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
});

async function setup(config: (ids: { alice: number; bob: number }) => Record<string, unknown>) {
  const db = await testDb();
  let skew = 0;
  const services = await createServices(db, { now: () => Date.now() + skew, push: { allowLoopbackHttp: true }, notifications: { send: { timeoutMs: 2_000 } } });
  opened.push({ services, db });
  const t = await testApp({ db, services });
  const alice = await t.signUp("alice");
  const bob = await t.signUp("bob");
  const subscribe = async (token: string, name: string) =>
    (await t.call<{ device: PushDeviceView }>("POST", "/api/webpush/subscriptions", { token, body: { ...push.device(name).subscription, label: name } })).body.device;
  const channel = await t.call<{ channel: { id: number } }>("POST", "/api/notifications/channels", {
    token: alice.token,
    body: { name: "On call", type: "webpush", config: config({ alice: alice.user.id, bob: bob.user.id }) },
  });
  expect(channel.status).toBe(201);
  const saved = await t.call("PUT", "/api/notifications/settings", {
    token: alice.token,
    body: {
      monitor: { enabled: true, channelIds: [channel.body.channel.id], events: { down: true, recovery: true }, reminderMinutes: 0 },
      agent: { enabled: false, channelIds: [], events: { offline: true, online: true, cpu: true, memory: true, disk: true }, thresholds: { cpu: 90, memory: 90, disk: 90 } },
      language: "en-US",
      timeZone: "UTC",
    },
  });
  expect(saved.status).toBe(200);
  const monitor = (await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token: alice.token, body: { name: "Shop", url: targetUrl, retries: 0, active: false } })).body.monitor.id;
  const check = () => t.call("POST", `/api/monitors/${monitor}/check`, { token: alice.token });
  /** The rules handle what happened, the clock moves on, the outbox sends what fell due. */
  const settle = async (ms = 1_000) => {
    await services.notifications.idle();
    skew += ms;
    await services.notifications.outbox.tick();
  };
  const deliveries = async () => (await t.call<{ deliveries: { status: string; attempts: number; error: string | null }[] }>("GET", "/api/notifications/deliveries", { token: alice.token })).body.deliveries;
  return { ...t, alice, bob, subscribe, monitor, check, settle, deliveries, channel: channel.body.channel.id };
}

describe("a monitor goes down: its webpush channel pushes to the people's devices", () => {
  test("each device gets the alert once, decrypted to the down message; the recovery replaces it (same tag)", async () => {
    const t = await setup(({ bob }) => ({ userIds: [bob] }));
    await t.subscribe(t.bob.token, "bob's phone");
    await t.subscribe(t.bob.token, "bob's laptop");
    await t.subscribe(t.alice.token, "alice's phone"); // not named by the channel
    await t.check(); // pending → up
    targetStatus = 503;
    await t.check(); // up → down
    await t.settle();
    await t.settle(); // nothing more: exactly once
    expect(push.rejected).toEqual([]);
    expect(push.received.map((r) => r.device).sort()).toEqual(["bob's laptop", "bob's phone"]);
    const down = push.received[0]!.payload;
    expect(down).toMatchObject({ title: "🔴 Monitor down: Shop", severity: "critical", url: `/monitors/${t.monitor}`, tag: `monitor-${t.monitor}-status` });
    expect(String(down.body).split("\n")).toEqual(expect.arrayContaining([`URL: ${targetUrl}`, "Status code: 503"]));
    expect(push.received[0]!.headers.urgency).toBe("high");

    targetStatus = 200;
    await t.check();
    await t.settle(5_000);
    const recoveries = push.received.slice(2);
    expect(recoveries.map((r) => [r.device, r.payload.title, r.payload.tag, r.headers.urgency]).sort()).toEqual([
      ["bob's laptop", "🟢 Monitor recovered: Shop", `monitor-${t.monitor}-status`, "normal"],
      ["bob's phone", "🟢 Monitor recovered: Shop", `monitor-${t.monitor}-status`, "normal"],
    ]);
    expect((await t.deliveries()).map((d) => d.status)).toEqual(["sent", "sent"]);
    const devices = (await t.call<{ devices: PushDeviceView[] }>("GET", "/api/webpush/subscriptions", { token: t.bob.token })).body.devices;
    expect(devices.every((d) => d.lastSuccessAt !== null && d.lastError === null)).toBe(true);
  });

  test("a channel for a role reaches everyone with it; a push service's 500 is retried by the outbox, then delivered once", async () => {
    const t = await setup(() => ({ role: "admin" }));
    await t.subscribe(t.alice.token, "alice's phone");
    await t.subscribe(t.bob.token, "bob's phone"); // an editor
    push.answer(() => new Response("try later", { status: 500 }));
    await t.check();
    targetStatus = 500;
    await t.check();
    await t.settle();
    expect(push.received.map((r) => r.device)).toEqual(["alice's phone"]); // it arrived, and was answered 500
    expect(await t.deliveries()).toMatchObject([{ status: "pending", attempts: 1, error: expect.stringContaining("HTTP 500: try later") }]);
    push.answer(() => new Response(null, { status: 201 }));
    await t.settle(RETRY_DELAYS_MS[0]!);
    expect(push.received.map((r) => r.device)).toEqual(["alice's phone", "alice's phone"]);
    expect(await t.deliveries()).toMatchObject([{ status: "sent", attempts: 2 }]);
    await t.settle(60_000);
    expect(push.received).toHaveLength(2);
  });

  test("a device its push service says is gone is removed; the others still get the alert", async () => {
    const t = await setup(({ bob }) => ({ userIds: [bob] }));
    await t.subscribe(t.bob.token, "old tablet");
    await t.subscribe(t.bob.token, "phone");
    push.answer((device) => new Response(null, { status: device === "old tablet" ? 410 : 201 }));
    await t.check();
    targetStatus = 500;
    await t.check();
    await t.settle();
    expect((await t.deliveries()).map((d) => d.status)).toEqual(["sent"]);
    const devices = (await t.call<{ devices: PushDeviceView[] }>("GET", "/api/webpush/subscriptions", { token: t.bob.token })).body.devices;
    expect(devices.map((d) => d.label)).toEqual(["phone"]);
  });
});
