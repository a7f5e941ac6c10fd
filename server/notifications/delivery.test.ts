import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { testApp } from "../test-support";
import type { MonitorStatusEvent } from "../monitors/public";
import { reopenableDb } from "../monitors/test-db";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "./outbox";
import { startFake, type Fake } from "./providers/test-fake";

// Events end to end: the real scheduler's checks and the real agent ingest raise events; the rules queue them; the
// outbox sends them to a local webhook fake. A movable clock stands in for waiting.

let hook: Fake;
let target: Server;
let targetStatus = 200;
let targetUrl = "";

beforeEach(async () => {
  hook = startFake(() => new Response("ok"));
  targetStatus = 200;
  target = createServer((_req, res) => {
    res.writeHead(targetStatus).end("x");
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
});
/** What a test opened: stopped and closed after it (on PostgreSQL each holds a pool of connections). */
const opened: { services: Services; db: Db }[] = [];
afterEach(async () => {
  for (const { services, db } of opened.splice(0)) {
    await services.notifications.stop().catch(() => {});
    await db.close().catch(() => {});
  }
  hook.stop();
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
});

/** What the webhook fake received: one entry per message, with the events it carried. */
const messages = () => hook.received.map((r) => r.json as { title: string; lines: string[]; events: { kind: string; target: { id: number; name: string }; facts: any }[] });

async function setup({ db, language = "en-US" }: { db?: Db; language?: string } = {}) {
  db ??= await testDb();
  let skew = 0;
  const now = () => Date.now() + skew;
  const services = await createServices(db, { now, notifications: { send: { timeoutMs: 1_000 } } });
  opened.push({ services, db });
  const t = await testApp({ db, services });
  const { token } = await t.signUp("alice");
  const channel = (await t.call<{ channel: { id: number } }>("POST", "/api/notifications/channels", { token, body: { name: "Hook", type: "webhook", config: { url: `${hook.url}/hook` } } })).body.channel.id;
  const settings = (channelIds: number[], extra: Record<string, unknown> = {}) =>
    t.call("PUT", "/api/notifications/settings", {
      token,
      body: {
        monitor: { enabled: true, channelIds, events: { down: true, recovery: true }, reminderMinutes: 0 },
        agent: { enabled: true, channelIds, events: { offline: true, online: true, cpu: true, memory: true, disk: true }, thresholds: { cpu: 90, memory: 90, disk: 90 } },
        language,
        timeZone: "UTC",
        ...extra,
      },
    });
  await settings([channel]);
  const outbox = services.notifications.outbox;
  /** Lets the rules handle the events so far (at the current time), then moves the clock and lets the outbox do what fell due. */
  const advance = async (ms: number) => {
    await services.notifications.idle();
    skew += ms;
    await outbox.tick();
  };
  return { ...t, token, channel, settings, outbox, advance, now };
}

async function monitorAgainstTarget(t: Awaited<ReturnType<typeof setup>>, name = "Shop") {
  const res = await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token: t.token, body: { name, url: targetUrl, retries: 0, active: false } });
  return res.body.monitor.id;
}
const check = (t: Awaited<ReturnType<typeof setup>>, id: number) => t.call("POST", `/api/monitors/${id}/check`, { token: t.token });

describe("monitors", () => {
  test("one message when a monitor goes down, one when it recovers, in the instance's language, with the facts", async () => {
    const t = await setup();
    const id = await monitorAgainstTarget(t);
    await check(t, id); // pending → up: nothing to say
    targetStatus = 503;
    await check(t, id); // up → down
    await check(t, id); // still down: nothing new
    await t.advance(1_000);
    expect(messages()).toHaveLength(1);
    const [down] = messages();
    expect(down.title).toBe("🔴 Monitor down: Shop");
    expect(down.lines).toContain(`URL: ${targetUrl}`);
    expect(down.lines).toContain("Status code: 503");
    expect(down.lines).toContain("Reason: Status 503, expected 2xx");
    expect(down.events[0]).toMatchObject({ kind: "down", target: { id, name: "Shop" }, facts: { httpStatus: 503 } });

    targetStatus = 200;
    await check(t, id);
    await check(t, id);
    await t.advance(5_000);
    expect(messages().map((m) => m.title)).toEqual(["🔴 Monitor down: Shop", "🟢 Monitor recovered: Shop"]);
    expect(messages()[1].lines.some((l) => l.startsWith("Down for: "))).toBe(true);
    // The log has both, sent.
    const log = await t.call<{ deliveries: any[] }>("GET", "/api/notifications/deliveries", { token: t.token });
    expect(log.body.deliveries.map((d) => [d.status, d.events[0].kind])).toEqual([["sent", "recovery"], ["sent", "down"]]);
  });

  test("zh-CN messages by default", async () => {
    const t = await setup({ language: "zh-CN" });
    const id = await monitorAgainstTarget(t, "商城");
    await check(t, id);
    targetStatus = 500;
    await check(t, id);
    await t.advance(1_000);
    expect(messages()[0].title).toBe("🔴 监控故障：商城");
    expect(messages()[0].lines).toContain("原因：状态码 500，期望 2xx".replace("：", ": "));
  });

  test("no orphan recovery: a down that was not sent is not followed by 'recovered'", async () => {
    const t = await setup();
    await t.settings([]); // nowhere to send: the down goes nowhere
    const id = await monitorAgainstTarget(t);
    await check(t, id);
    targetStatus = 500;
    await check(t, id);
    await t.settings([t.channel]);
    targetStatus = 200;
    await check(t, id);
    await t.advance(5_000);
    expect(messages()).toHaveLength(0);
  });

  test("a monitor's override beats the global settings", async () => {
    const t = await setup();
    const other = startFake(() => new Response("ok"));
    try {
      const second = (await t.call<{ channel: { id: number } }>("POST", "/api/notifications/channels", { token: t.token, body: { name: "Other", type: "webhook", config: { url: other.url } } })).body.channel.id;
      const id = await monitorAgainstTarget(t);
      await t.call("PUT", `/api/notifications/settings/monitors/${id}`, { token: t.token, body: { enabled: true, channelIds: [second], events: { down: true, recovery: false } } });
      await check(t, id);
      targetStatus = 500;
      await check(t, id);
      targetStatus = 200;
      await check(t, id);
      await t.advance(5_000);
      expect(messages()).toHaveLength(0);
      expect(other.received.map((r) => (r.json as any).events[0].kind)).toEqual(["down"]); // recovery switched off there
    } finally {
      other.stop();
    }
  });

  test("reminders while still down, when asked for", async () => {
    const t = await setup();
    await t.settings([t.channel], { monitor: { enabled: true, channelIds: [t.channel], events: { down: true, recovery: true }, reminderMinutes: 30 } });
    const id = await monitorAgainstTarget(t);
    await t.call("PUT", `/api/monitors/${id}`, { token: t.token, body: { active: true } });
    await check(t, id);
    targetStatus = 500;
    await check(t, id);
    await t.advance(1_000);
    await t.services.notifications.rules.remind(); // too early
    await t.advance(30 * 60_000);
    await t.services.notifications.rules.remind();
    await t.advance(2_000);
    expect(messages().map((m) => m.title)).toEqual(["🔴 Monitor down: Shop", "🔴 Monitor still down: Shop"]);
    // What templates name on both: the target line and the failed check's code (the reminder's text stays short).
    const [down, reminder] = messages();
    expect(down!.events[0]!.facts).toMatchObject({ url: targetUrl, target: targetUrl, checkType: "http", errorCode: "STATUS" });
    expect(reminder!.events[0]!.facts).toEqual({ target: targetUrl, errorCode: "STATUS", downtimeSeconds: expect.any(Number) });
    await t.call("PUT", `/api/monitors/${id}`, { token: t.token, body: { active: false } });
  });
});

describe("agents", () => {
  const GiB = 1024 ** 3;
  const sample = (time: number, cpu: number, disk = 40) => ({
    time,
    cpu: { usage: cpu, cores: 2, model: "x" },
    memory: { total: 8 * GiB, used: GiB, free: 7 * GiB, usageRate: 12.5 },
    disks: [{ device: "/dev/vdb", mountPoint: "/data", fsType: "ext4", total: 100 * GiB, used: disk * GiB, free: (100 - disk) * GiB, usageRate: disk }],
    network: [],
    load: { one: 0, five: 0, fifteen: 0 },
  });
  const host = { hostname: "db-1.internal", ips: ["10.0.0.5"], os: "Linux", kernel: "6", arch: "x64", uptime: 1, agentVersion: "0.1.0" };

  async function agent(t: Awaited<ReturnType<typeof setup>>) {
    const regToken = (await t.call<{ token: string }>("POST", "/api/agents/tokens", { token: t.token })).body.token;
    const reg = await t.call<{ agentId: number; credential: string }>("POST", "/api/agents/register", { body: { token: regToken, host } });
    const report = (cpu: number, disk = 40) =>
      t.call("POST", "/api/agents/report", { headers: { authorization: `Bearer ${reg.body.credential}` }, body: { host, interval: 10, samples: [sample(t.now(), cpu, disk)] } });
    return { id: reg.body.agentId, report };
  }

  test("offline once, back online once (only after an offline was sent)", async () => {
    const t = await setup();
    const a = await agent(t);
    await a.report(10);
    await t.services.agents.checkPresence();
    await t.advance(31_000);
    await t.services.agents.checkPresence(); // silent for 31 s: offline
    await t.services.agents.checkPresence();
    await t.advance(1_000);
    await a.report(10); // back
    await t.advance(2_000);
    expect(messages().map((m) => m.title)).toEqual(["🔴 Agent offline: db-1.internal", "🟢 Agent back online: db-1.internal"]);
  });

  test("a threshold alerts after 2 reports above it, once, until usage falls back below; each disk by its mount point", async () => {
    const t = await setup();
    const a = await agent(t);
    await a.report(95); // one report above: not yet
    await t.advance(1_000);
    expect(messages()).toHaveLength(0);
    await a.report(96);
    await a.report(97);
    await a.report(99, 93);
    await a.report(98, 94);
    await t.advance(3_000);
    const events = messages().flatMap((m) => m.events);
    expect(events.map((e) => [e.kind, e.facts.mountPoint ?? null])).toEqual([
      ["cpu", null],
      ["disk", "/data"],
    ]);
    // Both crossed before the channel's next send: one message, each alert on its line.
    expect(messages().map((m) => m.title)).toEqual(["1 CPU alert, 1 disk alert"]);
    expect(messages()[0].lines[1]).toBe("🟠 Disk almost full: db-1.internal /data — 94% ≥ 90%");
    const cpu = events.find((e) => e.kind === "cpu")!;
    expect(cpu.facts).toMatchObject({ hostname: "db-1.internal", usage: 96, threshold: 90 });
    // Falls back below: re-armed; above twice again: a second alert.
    await a.report(20);
    await a.report(95);
    await a.report(95);
    await t.advance(70_000);
    expect(messages().flatMap((m) => m.events).filter((e) => e.kind === "cpu")).toHaveLength(2);
  });
});

describe("the outbox", () => {
  const down = (i: number, at: number): MonitorStatusEvent => ({ monitorId: 10_000 + i, name: `svc-${i}`, type: "http", url: `http://10.0.0.${i % 250}/`, from: "up", to: "down", at, error: "connection refused", responseTime: null, httpStatus: null });

  test("a storm of 300 downs is a handful of grouped messages naming every monitor", async () => {
    const t = await setup();
    // 300 downs spread over 40 s, the outbox working as time goes.
    for (let i = 0; i < 300; i++) {
      t.services.events.emit("monitor.status", down(i, t.now()));
      if (i % 10 === 9) await t.advance(1_300);
    }
    for (let i = 0; i < 20; i++) await t.advance(60_000);
    const all = messages();
    expect(all.length).toBeLessThanOrEqual(20);
    const named = all.flatMap((m) => m.events.map((e) => e.target.name));
    expect(new Set(named).size).toBe(300);
    expect(named).toHaveLength(300); // none twice
    // The first message leaves at once with what arrived together (10 at a time here).
    expect(all[0].events.map((e) => e.target.name)).toContain("svc-0");
    expect(all[0].events.length).toBeLessThanOrEqual(10);
    const grouped = all.find((m) => m.events.length > 1)!;
    expect(grouped.title).toMatch(/^\d+ monitors down$/);
    expect(grouped.lines.some((l) => l.includes("Connection refused"))).toBe(true);
  });

  test("a failing provider is retried with backoff (honouring Retry-After) until it takes the message", async () => {
    const t = await setup();
    let calls = 0;
    hook.answer(() => (++calls === 1 ? new Response("busy", { status: 503 }) : calls === 2 ? new Response("slow down", { status: 429, headers: { "retry-after": "120" } }) : new Response("ok")));
    t.services.events.emit("monitor.status", down(1, t.now()));
    await t.advance(1_000); // try 1: 503
    await t.advance(RETRY_DELAYS_MS[0]); // try 2: 429, Retry-After 120 s
    let log = (await t.call<{ deliveries: any[] }>("GET", "/api/notifications/deliveries", { token: t.token })).body.deliveries;
    expect(log[0]).toMatchObject({ status: "pending", attempts: 2 });
    expect(log[0].nextAttemptAt - t.now()).toBeGreaterThan(100_000);
    await t.advance(60_000); // not yet
    expect(calls).toBe(2);
    await t.advance(61_000);
    expect(calls).toBe(3);
    log = (await t.call<{ deliveries: any[] }>("GET", "/api/notifications/deliveries", { token: t.token })).body.deliveries;
    expect(log[0]).toMatchObject({ status: "sent", attempts: 3, error: null });
  });

  test("a provider that never takes it: failed after the last try, the channel shown as failing", async () => {
    const t = await setup();
    hook.answer(() => new Response("down", { status: 500 }));
    for (let i = 0; i < 3; i++) {
      t.services.events.emit("monitor.status", down(i, t.now()));
      await t.advance(1_000);
      for (const d of RETRY_DELAYS_MS) await t.advance(d + 1_000);
      await t.advance(120_000);
    }
    const log = (await t.call<{ deliveries: any[] }>("GET", "/api/notifications/deliveries", { token: t.token })).body.deliveries;
    expect(log.every((d) => d.status === "failed" && d.attempts === MAX_ATTEMPTS)).toBe(true);
    const channel = (await t.call<{ channel: any }>("GET", `/api/notifications/channels/${t.channel}`, { token: t.token })).body.channel;
    expect(channel.health).toMatchObject({ failing: true, consecutiveFailures: 3 });
    expect(channel.health.lastError).toContain("500");
  });

  test("a restart resumes pending sends: nothing lost, nothing doubled", async () => {
    const database = await reopenableDb();
    try {
      const first = await setup({ db: await database.open() });
      hook.answer(() => new Response("down", { status: 503 }));
      first.services.events.emit("monitor.status", down(1, first.now()));
      first.services.events.emit("monitor.status", down(1, first.now())); // the same event again: ignored
      await first.advance(1_000); // tried once, failed, waiting to retry
      first.services.events.emit("monitor.status", down(2, first.now())); // queued, never tried
      await first.services.notifications.idle();
      await first.db.close(); // as if killed

      hook.answer(() => new Response("ok"));
      const db = await database.open();
      const services = await createServices(db, { now: () => Date.now() + 10 * 60_000 });
      opened.push({ services, db });
      await services.notifications.outbox.tick();
      await services.notifications.outbox.tick();
      const names = messages().slice(1).flatMap((m) => m.events.map((e) => e.target.name));
      expect(names.sort()).toEqual(["svc-1", "svc-2"]);
      // A further restart sends nothing more.
      await services.notifications.stop();
      await db.close();
      const db2 = await database.open();
      const again = await createServices(db2, { now: () => Date.now() + 20 * 60_000 });
      opened.push({ services: again, db: db2 });
      await again.notifications.outbox.tick();
      expect(messages().slice(1).flatMap((m) => m.events)).toHaveLength(2);
      expect(await again.notifications.outbox.backlog()).toEqual({ messages: 0, events: 0 });
    } finally {
      for (const { services, db } of opened.splice(0)) {
        await services.notifications.stop().catch(() => {});
        await db.close().catch(() => {});
      }
      await database.cleanup();
    }
  });
});
