// Quiet hours on the real clock, in the fully wired server (createServices + createApp, started through lifecycle.ts
// as main.ts does), on the engine of the pass: a channel quiet from this minute to the next holds an agent's CPU alert
// (low) until the minute turns, then delivers it, while a monitor's down alert (high) passes at once. Up to a minute
// and a quarter of waiting: it runs in the waiting stream (scripts/ci-test.sh).
import { afterEach, expect, test } from "bun:test";
import { isNull } from "drizzle-orm";
import { testHost, testSample } from "../agents/test-fixtures";
import { wiredApp } from "../test-support";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
}, 30_000);

async function until(what: string, ok: () => boolean | Promise<boolean>, ms: number) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

test("quiet until the minute turns: the CPU alert waits for it, the down alert does not", async () => {
  const arrived: { kind: string; at: number }[] = [];
  const hook = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      const at = Date.now();
      for (const e of ((await req.json()) as { events: { kind: string }[] }).events) arrived.push({ kind: e.kind, at });
      return new Response("ok");
    },
  });
  cleanups.push(() => hook.stop(true));
  const target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("x", { status: 500 }) });
  cleanups.push(() => target.stop(true));

  const t = await wiredApp({ minuteMs: 2_000 });
  cleanups.push(t.stop);
  const { token } = await t.signUp("admin");
  const call = <T = Record<string, any>>(method: string, path: string, body?: unknown, bearer = token) => t.call<T>(method, path, { token: bearer, body });

  // At least 15 s of the minute left, so both alerts are raised inside the quiet hours.
  if (Date.now() % 60_000 > 45_000) await Bun.sleep(60_000 - (Date.now() % 60_000) + 200);
  const quietEnd = Date.now() - (Date.now() % 60_000) + 60_000;
  const channel = await call<{ channel: { id: number } }>("POST", "/api/notifications/channels", {
    name: "Night phone",
    type: "webhook",
    config: { url: `http://127.0.0.1:${hook.port}/hook` },
    quietHours: { from: hhmm(quietEnd - 60_000), to: hhmm(quietEnd), timeZone: "UTC", holdDown: false },
  });
  expect(channel.status).toBe(201);
  const ids = [channel.body.channel.id];
  const settings = await call("PUT", "/api/notifications/settings", {
    monitor: { enabled: true, channelIds: ids, events: { down: true, recovery: true }, reminderMinutes: 0 },
    agent: { enabled: true, channelIds: ids, events: { offline: true, online: true, cpu: true, memory: false, disk: false }, thresholds: { cpu: 90, memory: 90, disk: 90 } },
    language: "en-US",
    timeZone: "UTC",
  });
  expect(settings.status).toBe(200);

  // A busy agent: two reports over the threshold raise the CPU alert.
  const registration = await call<{ token: string }>("POST", "/api/agents/tokens");
  const agent = await call<{ agentId: number; credential: string }>("POST", "/api/agents/register", { token: registration.body.token, name: "Web 1", host: testHost });
  expect(agent.status).toBe(201);
  for (let i = 0; i < 2; i++) {
    const report = await call("POST", "/api/agents/report", { host: testHost, interval: 1, samples: [testSample(Date.now(), 97)] }, agent.body.credential);
    expect(report.status).toBe(200);
    await Bun.sleep(1_100);
  }
  // A failing monitor: down at its first check.
  expect((await call("POST", "/api/monitors", { name: "Shop", url: `http://127.0.0.1:${target.port}/`, retries: 0, interval: 1 })).status).toBe(201);

  await until("the down alert", () => arrived.some((a) => a.kind === "down"), 10_000);
  expect(arrived.find((a) => a.kind === "down")!.at).toBeLessThan(quietEnd);
  // The CPU alert is queued, and held.
  const { db } = t;
  const { notificationEvents: events } = db.t;
  await until("the CPU alert queued", async () => (await db.orm.select().from(events).where(isNull(events.messageId))).some((e) => e.event.kind === "cpu"), 10_000);
  expect(Date.now()).toBeLessThan(quietEnd);
  expect(arrived.some((a) => a.kind === "cpu")).toBe(false);

  await until("the CPU alert after the quiet hours", () => arrived.some((a) => a.kind === "cpu"), quietEnd - Date.now() + 10_000);
  const cpu = arrived.find((a) => a.kind === "cpu")!;
  expect(cpu.at).toBeGreaterThanOrEqual(quietEnd);
  expect(cpu.at).toBeLessThan(quietEnd + 5_000);
  await Bun.sleep(2_000);
  expect(arrived.filter((a) => a.kind === "cpu")).toHaveLength(1);
  expect(arrived.filter((a) => a.kind === "down")).toHaveLength(1);
}, 120_000);
