// A group is notified as one: its transitions go through the same rules as any monitor's, so the group's channels get
// one down when its members go down (and one recovery), while members without channels of their own send nothing.
import { afterAll, afterEach, beforeEach, expect, test } from "bun:test";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { startTarget } from "../monitors/test-target";
import { testApp } from "../test-support";
import { startFake, type Fake } from "./providers/test-fake";

let hook: Fake;
const target = startTarget();
afterAll(() => target.stop());
const opened: { services: Services; db: Db }[] = [];
beforeEach(() => {
  hook = startFake(() => new Response("ok"));
});
afterEach(async () => {
  for (const { services, db } of opened.splice(0)) {
    await services.notifications.stop().catch(() => {});
    await db.close().catch(() => {});
  }
  hook.stop();
});

const events = () => hook.received.flatMap((r) => (r.json as { events: { kind: string; target: { id: number; name: string } }[] }).events);

test("members going down alert the group's channel once, as the group; their recovery once", async () => {
  const db = await testDb();
  let skew = 0;
  const services = await createServices(db, { now: () => Date.now() + skew, monitors: { tls: false }, notifications: { send: { timeoutMs: 1_000 } } });
  opened.push({ services, db });
  const t = await testApp({ db, services });
  const { token } = await t.signUp("alice");
  const channel = (await t.call<{ channel: { id: number } }>("POST", "/api/notifications/channels", { token, body: { name: "Hook", type: "webhook", config: { url: `${hook.url}/hook` } } })).body.channel.id;
  const monitor = { enabled: true, channelIds: [channel], events: { down: true, recovery: true }, reminderMinutes: 0 };
  // Nothing globally: only the group has a channel.
  await t.call("PUT", "/api/notifications/settings", {
    token,
    body: { monitor: { ...monitor, enabled: false, channelIds: [] }, agent: { enabled: false, channelIds: [], events: { offline: true, online: true, cpu: true, memory: true, disk: true }, thresholds: { cpu: 90, memory: 90, disk: 90 } }, language: "en-US", timeZone: "UTC" },
  });
  const create = async (body: Record<string, unknown>) => (await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { retries: 0, active: false, ...body } })).body.monitor.id;
  const group = await create({ name: "Shop", type: "group", active: true });
  expect((await t.call("PUT", `/api/notifications/settings/monitors/${group}`, { token, body: monitor })).status).toBe(200);
  const members = [await create({ name: "api", url: target.url("/ok"), parentId: group }), await create({ name: "db", url: target.url("/ok"), parentId: group })];
  const checkAll = async (path: string) => {
    for (const id of members) {
      await t.call("PUT", `/api/monitors/${id}`, { token, body: { url: target.url(path), active: true } });
      await t.call("POST", `/api/monitors/${id}/check`, { token });
    }
  };
  const settle = async () => {
    await services.notifications.idle();
    skew += 5_000;
    await services.notifications.outbox.tick();
  };
  await checkAll("/ok");
  await settle();
  await checkAll("/status/503");
  await settle();
  await checkAll("/status/503"); // still down: nothing new
  await settle();
  expect(events().map((e) => [e.kind, e.target.name])).toEqual([["down", "Shop"]]);
  await checkAll("/ok");
  await settle();
  expect(events().map((e) => [e.kind, e.target.name])).toEqual([["down", "Shop"], ["recovery", "Shop"]]);
});
