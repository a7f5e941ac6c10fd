import { afterEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createServices } from "../app";
import { testHost, testSample } from "../agents/test-fixtures";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { DAY, HOUR } from "../monitors/history";
import { insertResults } from "../monitors/test-db";
import { testApp } from "../test-support";
import type { PublicStatusPage, StatusPageConfig } from "./public";

// The status page API: the configuration (signed in), the public view (no sign-in) with nothing private in it, its
// 90 days from the rollups, the cache that still shows an outage at once, ETag / 304, badges.

const NOW = Date.UTC(2026, 10, 20, 15, 30, 0);

/** An app whose monitors "check" by asking `verdicts` (up unless set), and whose clock stands at NOW. */
const opened: Db[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

async function setup() {
  const db = await testDb();
  opened.push(db);
  const verdicts = new Map<string, boolean>();
  const services = await createServices(db, {
    now: () => NOW,
    monitors: {
      clock: { now: () => NOW, setTimeout: () => 0 as never, clearTimeout: () => {} } as never,
      tls: false,
      checker: async (target) => {
        const up = verdicts.get(target.url) ?? true;
        return { time: NOW, up, responseTime: up ? 120 : null, httpStatus: up ? 200 : 500, error: up ? null : "HTTP 500" };
      },
    },
  });
  const t = await testApp({ db, services });
  const { token } = await t.signUp("alice");
  return { ...t, token, verdicts };
}

type Call = Awaited<ReturnType<typeof testApp>>["call"];

const page = async (call: Call) => {
  const res = await call<{ page: PublicStatusPage }>("GET", "/api/status");
  expect(res.status).toBe(200);
  return res.body.page;
};

const config = (over: Record<string, unknown> = {}) => ({ title: "Acme status", description: "", monitorIds: [], agentIds: [], announcement: null, ...over });

describe("configuration", () => {
  test("signed in only; defaults; selection saved in order, duplicates dropped; announcement posted and cleared", async () => {
    const { call, token, services } = await setup();
    expect((await call("GET", "/api/status/config")).status).toBe(401);
    expect((await call("PUT", "/api/status/config", { body: config() })).status).toBe(401);

    const empty = await call<{ config: StatusPageConfig }>("GET", "/api/status/config", { token });
    expect(empty.body.config).toEqual({ title: "", description: "", monitorIds: [], agentIds: [], announcement: null, publicUrl: "http://localhost/status", updatedAt: null });

    const a = await services.monitors.create({ name: "API", url: "http://127.0.0.1:9/a" });
    const b = await services.monitors.create({ name: "Web", url: "http://127.0.0.1:9/b" });
    const saved = await call<{ config: StatusPageConfig; message: string }>("PUT", "/api/status/config", {
      token,
      body: config({ title: "  Acme  ", description: "Our services", monitorIds: [b.id, a.id, b.id], announcement: { severity: "warning", text: " Maintenance at 22:00 " } }),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("Status page configuration saved");
    expect(saved.body.config).toMatchObject({ title: "Acme", description: "Our services", monitorIds: [b.id, a.id], agentIds: [], announcement: { severity: "warning", text: "Maintenance at 22:00", updatedAt: NOW } });
    expect((await call<{ config: StatusPageConfig }>("GET", "/api/status/config", { token })).body.config).toEqual(saved.body.config);

    const cleared = await call<{ config: StatusPageConfig }>("PUT", "/api/status/config", { token, body: config({ monitorIds: [a.id] }) });
    expect(cleared.body.config.announcement).toBeNull();
    expect((await page(call)).announcement).toBeNull();
  });

  test("bad input: unknown monitors or agents, limits, severities, an empty announcement", async () => {
    const { call, token } = await setup();
    const bad = async (body: unknown) => {
      const res = await call("PUT", "/api/status/config", { token, body });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      return res.body;
    };
    expect(await bad(config({ monitorIds: [999] }))).toMatchObject({ code: "MONITOR_UNKNOWN", message: "Unknown monitor in the selection: 999" });
    expect(await bad(config({ agentIds: [7] }))).toMatchObject({ code: "AGENT_UNKNOWN" });
    expect((await bad(config({ title: "x".repeat(101) }))).message).toContain("at most 100");
    expect((await bad(config({ announcement: { severity: "panic", text: "hi" } }))).message).toContain("info, warning or outage");
    expect((await bad(config({ announcement: { severity: "info", text: "   " } }))).message).toContain("Announcement text is required");
    expect((await bad(config({ monitorIds: ["abc"] }))).code).toBe("VALIDATION");
    expect((await bad(config({ agentIds: [0] }))).code).toBe("VALIDATION");
    await bad({ title: "no lists" });
    expect((await call<{ config: StatusPageConfig }>("GET", "/api/status/config", { token })).body.config.updatedAt).toBeNull();
  });

  test("deleting a monitor or an agent takes it off the page", async () => {
    const { call, token, services } = await setup();
    const m = await services.monitors.create({ name: "Gone soon", url: "http://127.0.0.1:9/" });
    const reg = await services.agents.register((await services.agents.createToken(1)).token, "db-1", testHost);
    const agentId = typeof reg === "string" ? 0 : reg.agent.id;
    await call("PUT", "/api/status/config", { token, body: config({ monitorIds: [m.id], agentIds: [agentId] }) });
    expect((await page(call)).monitors.map((x) => x.name)).toEqual(["Gone soon"]);
    await services.monitors.remove(m.id);
    await services.agents.remove(agentId);
    expect(await page(call)).toMatchObject({ monitors: [], agents: [] });
    expect((await call<{ config: StatusPageConfig }>("GET", "/api/status/config", { token })).body.config).toMatchObject({ monitorIds: [], agentIds: [] });
  });
});

describe("the public page", () => {
  test("needs no sign-in; with nothing selected both sections are empty and all is operational", async () => {
    const { call } = await setup();
    const p = await page(call);
    expect(p).toMatchObject({ title: "", monitors: [], agents: [], announcement: null, overall: { status: "operational", down: [], offline: [] } });
  });

  test("shows only names, statuses and aggregates: nothing private, nothing unselected", async () => {
    const { call, token, services, db } = await setup();
    const SECRET = "s3cr3t-planted";
    const shown = await services.monitors.create({
      name: "Checkout",
      url: `https://user:${SECRET}-pw@${SECRET}-host.example/path?key=${SECRET}-q`,
      method: "POST",
      headers: [{ name: "Authorization", value: `Bearer ${SECRET}-header` }],
      body: `{"token":"${SECRET}-body"}`,
    });
    await services.monitors.create({ name: `Hidden ${SECRET}-name`, url: `https://${SECRET}-other.example/` });
    await services.monitors.checkNow(shown.id);
    const agentToken = (await services.agents.createToken(1)).token;
    const reg = await services.agents.register(agentToken, "db-1", { ...testHost, hostname: `${SECRET}-hostname`, ips: [`10.9.9.9`], os: `${SECRET}-os`, kernel: `${SECRET}-kernel` });
    if (typeof reg === "string") throw new Error(reg);
    await services.agents.ingest(reg.agent.id, { host: { ...testHost, hostname: `${SECRET}-hostname`, ips: ["10.9.9.9"] }, interval: 10, samples: [testSample(NOW - 1000, 33)] });
    const hiddenAgent = await services.agents.register((await services.agents.createToken(1)).token, `${SECRET}-agent`, testHost);
    if (typeof hiddenAgent === "string") throw new Error(hiddenAgent);
    await call("PUT", "/api/users/1", { token, body: { email: `${SECRET}@mail.example` } });
    await call("PUT", "/api/status/config", { token, body: config({ monitorIds: [shown.id], agentIds: [reg.agent.id] }) });

    const res = await call<{ page: PublicStatusPage }>("GET", "/api/status");
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("10.9.9.9");
    expect(text).not.toContain(agentToken);
    expect(text).not.toContain(reg.credential);
    const creds = await db.rows<{ credential_hash: string }>(sql`SELECT credential_hash FROM agents`);
    for (const c of creds) expect(text).not.toContain(c.credential_hash);
    // Exactly the documented fields.
    expect(Object.keys(res.body.page).sort()).toEqual(["agents", "announcement", "description", "generatedAt", "groups", "incidents", "logo", "maintenance", "monitors", "overall", "slug", "title"]);
    expect(Object.keys(res.body.page.monitors[0]).sort()).toEqual(["days", "id", "name", "responseTimes", "status", "uptime"]);
    expect(Object.keys(res.body.page.agents[0]).sort()).toEqual(["cpu", "disk", "id", "lastSeenAt", "load", "memory", "name", "status", "uptime"]);
    expect(res.body.page.agents[0]).toMatchObject({ name: "db-1", status: "online", cpu: 33, memory: 25, disk: 40, load: { one: 0.5, five: 0.4, fifteen: 0.3 }, uptime: 1234 });
  });

  test("90 UTC days from the daily and hourly rollups and the raw results; uptime over 24 h, 30 d and 90 d; the sparkline", async () => {
    const { call, token, services, db } = await setup();
    const m = await services.monitors.create({ name: "API", url: "http://127.0.0.1:9/", active: false });
    const today = Math.floor(NOW / DAY) * DAY;
    const insert = (table: string, start: number, checks: number, up: number, rt: number) =>
      db.exec(sql`INSERT INTO ${sql.identifier(table)} (monitor_id, bucket_start, checks, up, down, rt_sum, rt_count) VALUES (${m.id}, ${start}, ${checks}, ${up}, ${checks - up}, ${rt * up}, ${up})`);
    // Days 89 … 1 ago rolled up daily (day 10 ago half down; day 50 ago missing); today's hours before 14:00 hourly;
    // 14:00 onwards raw.
    for (let d = 89; d >= 1; d--) if (d !== 50) await insert("monitor_daily", today - d * DAY, 1440, d === 10 ? 720 : 1440, 100);
    // Yesterday's hours too (the sparkline's earlier part): these must not count twice in yesterday's bar.
    for (let h = 0; h < 24; h++) await insert("monitor_hourly", today - DAY + h * HOUR, 60, 60, 200);
    for (let h = 0; h < 14; h++) await insert("monitor_hourly", today + h * HOUR, 60, h === 3 ? 0 : 60, 300);
    await insertResults(db, Array.from({ length: 30 }, (_, i) => ({ monitorId: m.id, time: today + 14 * HOUR + i * 60_000, up: true, responseTime: 400, httpStatus: null, error: null })));
    const { settings } = db.t;
    await db.orm.insert(settings).values([{ key: "monitors.rollup.daily", value: String(today) }, { key: "monitors.rollup.hourly", value: String(today + 14 * HOUR) }]);
    await call("PUT", "/api/status/config", { token, body: config({ monitorIds: [m.id] }) });

    const [monitor] = (await page(call)).monitors;
    expect(monitor.status).toBe("paused");
    expect(monitor.days).toHaveLength(90);
    expect(monitor.days[0].date).toBe(today - 89 * DAY);
    expect(monitor.days[89]).toEqual({ date: today, checks: 14 * 60 + 30, maintenance: 0, availability: Math.floor(((13 * 60 + 30) / (14 * 60 + 30)) * 10_000) / 100, avgResponseTime: Math.round((13 * 60 * 300 + 30 * 400) / (13 * 60 + 30)) });
    expect(monitor.days[88]).toEqual({ date: today - DAY, checks: 1440, maintenance: 0, availability: 100, avgResponseTime: 100 });
    expect(monitor.days[79]).toMatchObject({ availability: 50, checks: 1440 });
    expect(monitor.days[39]).toEqual({ date: today - 50 * DAY, checks: 0, maintenance: 0, availability: null, avgResponseTime: null });
    const up30 = 29 * 1440 - 720 + 13 * 60 + 30;
    const all30 = 29 * 1440 + 14 * 60 + 30;
    expect(monitor.uptime.month).toBe(Math.floor((up30 / all30) * 10_000) / 100);
    expect(monitor.uptime.quarter).toBe(Math.floor(((88 * 1440 - 720 + 13 * 60 + 30) / (88 * 1440 + 14 * 60 + 30)) * 10_000) / 100);
    // The sparkline: 24 hours ending with the current one (15:00); yesterday 16:00 … 23:00 at 200 ms, today's at 300,
    // 03:00 without an answer, 14:00 at 400, 15:00 nothing yet.
    expect(monitor.responseTimes.times).toHaveLength(24);
    expect(monitor.responseTimes.times[23]).toBe(today + 15 * HOUR);
    expect(monitor.responseTimes.values[0]).toBe(200);
    expect(monitor.responseTimes.values[8 + 3]).toBeNull();
    expect(monitor.responseTimes.values[8 + 2]).toBe(300);
    expect(monitor.responseTimes.values[22]).toBe(400);
    expect(monitor.responseTimes.values[23]).toBeNull();
  });

  test("an outage shows at once, cache or not; the banner names what is down or offline", async () => {
    const { call, token, services, verdicts } = await setup();
    const m = await services.monitors.create({ name: "Shop", url: "http://127.0.0.1:9/shop", retries: 0 });
    await services.monitors.checkNow(m.id);
    await call("PUT", "/api/status/config", { token, body: config({ monitorIds: [m.id] }) });
    expect((await page(call)).overall).toEqual({ status: "operational", down: [], offline: [] });
    verdicts.set("http://127.0.0.1:9/shop", false);
    await services.monitors.checkNow(m.id);
    const p = await page(call);
    expect(p.overall).toEqual({ status: "degraded", down: [{ id: m.id, name: "Shop" }], offline: [] });
    expect(p.monitors[0].status).toBe("down");
  });

  test("ETag: an unchanged page is 304 without a body; a saved change is a new tag", async () => {
    const { call, token } = await setup();
    const first = await call("GET", "/api/status");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-z]+"$/);
    expect(first.headers.get("cache-control")).toContain("max-age");
    const again = await call("GET", "/api/status", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.body).toEqual({ success: false, text: "" });
    expect((await call("GET", "/api/status", { headers: { "if-none-match": `W/${etag}, "other"` } })).status).toBe(304);
    await call("PUT", "/api/status/config", { token, body: config({ title: "New" }) });
    const changed = await call<{ page: PublicStatusPage }>("GET", "/api/status", { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.body.page.title).toBe("New");
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  test("gzip for clients that take it, with its own tag; either tag revalidates; q=0 means plain", async () => {
    const { app } = await setup();
    const get = (headers: Record<string, string> = {}) => app.handle(new Request("http://localhost/api/status", { headers }));
    const plain = await get();
    const plainText = await plain.text();
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("accept-encoding");
    const zipped = await get({ "accept-encoding": "gzip, deflate, br" });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    for (const res of [plain, zipped]) expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(zipped.headers.get("vary")).toBe("accept-encoding");
    const gzipTag = zipped.headers.get("etag")!;
    expect(gzipTag).toBe(plain.headers.get("etag")!.replace(/"$/, '-gzip"'));
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer())))).toBe(plainText);
    const again = await get({ "accept-encoding": "gzip", "if-none-match": gzipTag });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(gzipTag);
    expect((await get({ "if-none-match": gzipTag })).status).toBe(304);
    expect((await get({ "accept-encoding": "gzip;q=0, br" })).headers.get("content-encoding")).toBeNull();
    expect((await get({ "accept-encoding": "*" })).headers.get("content-encoding")).toBe("gzip");
  });

  test("a status change off the page keeps the cached view; one on the page drops it", async () => {
    const { call, token, services, verdicts } = await setup();
    const shown = await services.monitors.create({ name: "Shop", url: "http://127.0.0.1:9/shown", retries: 0 });
    const other = await services.monitors.create({ name: "Internal", url: "http://127.0.0.1:9/other", retries: 0 });
    await services.monitors.checkNow(shown.id);
    await services.monitors.checkNow(other.id);
    await call("PUT", "/api/status/config", { token, body: config({ monitorIds: [shown.id] }) });
    const view = await services.status.view();
    verdicts.set("http://127.0.0.1:9/other", false);
    await services.monitors.checkNow(other.id);
    await services.monitors.update(other.id, { name: "Internal 2" });
    expect(await services.status.view()).toBe(view);
    verdicts.set("http://127.0.0.1:9/shown", false);
    await services.monitors.checkNow(shown.id);
    expect(await services.status.view()).not.toBe(view);
    expect((await page(call)).overall.down).toEqual([{ id: shown.id, name: "Shop" }]);
  });
});

describe("badges", () => {
  test("an SVG with status and 30-day uptime for monitors on the page; 404 for any other", async () => {
    const { call, token, services } = await setup();
    const shown = await services.monitors.create({ name: "Shop <API>", url: "http://127.0.0.1:9/a" });
    const hidden = await services.monitors.create({ name: "Private", url: "http://127.0.0.1:9/b" });
    await services.monitors.checkNow(shown.id);
    await call("PUT", "/api/status/config", { token, body: config({ monitorIds: [shown.id] }) });
    const res = await testBadge(call, shown.id);
    expect(res.status).toBe(200);
    expect(res.type).toContain("image/svg+xml");
    expect(res.text).toStartWith("<svg");
    expect(res.text).toContain("Shop &#60;API&#62;");
    expect(res.text).toContain("up 100%");
    expect((await testBadge(call, hidden.id)).status).toBe(404);
    expect((await testBadge(call, 999)).status).toBe(404);
    expect((await call("GET", "/api/status/badge/abc.svg")).status).toBe(404);
  });
});

async function testBadge(call: Call, id: number) {
  const res = await call("GET", `/api/status/badge/${id}.svg`);
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: String((res.body as { text?: string }).text ?? "") };
}
