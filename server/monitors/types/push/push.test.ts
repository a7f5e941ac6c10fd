import { afterEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/database";
import { testDb } from "../../../db/test-db";
import { createEventBus, type EventMap } from "../../../events";
import { fakeClock, testApp } from "../../../test-support";
import { createMonitorService } from "../../service";
import { missedPush, pushOutcome } from "./push";

const MIN = 60_000;

const opened: Db[] = [];

async function setup() {
  const clock = fakeClock();
  const bus = createEventBus();
  const status: EventMap["monitor.status"][] = [];
  bus.on("monitor.status", (e) => status.push(e));
  const db = await testDb();
  opened.push(db);
  const service = createMonitorService({ db, bus, clock, tls: false, writer: { flushMs: 10 } });
  await service.load();
  return { clock, bus, service, status };
}

const running: { service: Awaited<ReturnType<typeof setup>>["service"] }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.service.stop(0);
  for (const db of opened.splice(0)) await db.close();
});

describe("push calls and silence", () => {
  test("a new push monitor gets a token, stays pending until called; a call makes it up", async () => {
    const t = await setup();
    const m = await t.service.create({ name: "nightly backup", type: "push", interval: 5 });
    expect(m.pushToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(m).toMatchObject({ status: "pending", target: "", lastPushAt: null });
    t.service.push(m.pushToken!, {});
    expect(t.service.get(m.id)).toMatchObject({ status: "up", lastPushAt: t.clock.now(), responseTime: null });
  });

  test("on time calls keep it up; no call within interval + grace makes it down, once per missed interval", async () => {
    const t = await setup();
    running.push(t);
    const m = await t.service.create({ name: "cron", type: "push", interval: 5, pushGrace: 60, retries: 0 });
    t.service.start({ maintenanceDelayMs: 3_600_000 });
    t.service.push(m.pushToken!, {});
    for (let i = 0; i < 3; i++) {
      await t.clock.advance(5 * MIN);
      t.service.push(m.pushToken!, {});
    }
    expect(t.service.get(m.id)!.status).toBe("up");
    // Silence: 5 min + 60 s after the last call it is down (within the minute the scheduler looks).
    await t.clock.advance(5 * MIN + 30_000);
    expect(t.service.get(m.id)!.status).toBe("up");
    await t.clock.advance(90_000);
    expect(t.service.get(m.id)).toMatchObject({ status: "down", lastError: "no push within 5 min + 60 s" });
    const downAt = t.status.at(-1)!;
    expect(downAt).toMatchObject({ to: "down", type: "push", facts: { lastPushAt: expect.any(Number) } });
    // Twenty more silent minutes: four more missed checks, not twenty.
    const before = (await t.service.recentChecks(m.id))!.length;
    await t.clock.advance(20 * MIN);
    expect((await t.service.recentChecks(m.id))!.length - before).toBe(4);
    // A late call brings it back.
    t.service.push(m.pushToken!, {});
    expect(t.service.get(m.id)!.status).toBe("up");
    expect(t.status.at(-1)).toMatchObject({ from: "down", to: "up" });
  });

  test("each check event carries the monitor's last push: a call's own time, the previous one for a missed check", async () => {
    const t = await setup();
    running.push(t);
    const checks: EventMap["monitor.check"][] = [];
    t.bus.on("monitor.check", (e) => checks.push(e)); // what the live push forwards to the list and the detail page
    const m = await t.service.create({ name: "cron", type: "push", interval: 1, pushGrace: 0, retries: 0 });
    t.service.start({ maintenanceDelayMs: 3_600_000 });
    t.service.push(m.pushToken!, {});
    const calledAt = t.clock.now();
    expect(checks.at(-1)).toMatchObject({ monitorId: m.id, status: "up", lastPushAt: calledAt, result: { time: calledAt } });
    await t.clock.advance(3 * MIN);
    const missed = checks.at(-1)!;
    expect(missed.result.error).toBe("no push within 1 min + 0 s");
    expect(missed.result.time).toBeGreaterThan(calledAt);
    expect(missed.lastPushAt).toBe(calledAt);
  });

  test("a 20 s push monitor's silence is noticed within its interval, not the next minute; one missed check per 20 s", async () => {
    const t = await setup();
    running.push(t);
    const m = await t.service.create({ name: "loop", type: "push", intervalSeconds: 20, pushGrace: 0, retries: 0 });
    t.service.start({ maintenanceDelayMs: 3_600_000 });
    t.service.push(m.pushToken!, {});
    const calledAt = t.clock.now();
    await t.clock.advance(40_000);
    const down = t.service.get(m.id)!;
    expect(down).toMatchObject({ status: "down", lastError: "no push within 20 s + 0 s" });
    // Silent from 20 s after the call: seen by the look that follows, at most 20 s later.
    expect(down.statusChangedAt! - calledAt).toBeLessThanOrEqual(40_000);
    const before = (await t.service.recentChecks(m.id))!.length;
    await t.clock.advance(MIN);
    expect((await t.service.recentChecks(m.id))!.length - before).toBe(3);
  });

  test("status=down with msg records a failure with the message; ping sets the response time", async () => {
    const t = await setup();
    // No retries by default for push monitors: one report of failure is down.
    const m = await t.service.create({ name: "job", type: "push" });
    expect(m.retries).toBe(0);
    t.service.push(m.pushToken!, { status: "down", msg: "disk   full\n" });
    expect(t.service.get(m.id)).toMatchObject({ status: "down", lastError: "reported down: disk full" });
    await t.clock.advance(2000);
    t.service.push(m.pushToken!, { status: "up", ping: 1234 });
    expect(t.service.get(m.id)).toMatchObject({ status: "up", responseTime: 1234 });
  });

  test("pure rules: outcome of a call, silence measured from the later of last call and start of listening", () => {
    expect(pushOutcome(5, { status: "down" })).toEqual({ time: 5, up: false, responseTime: null, httpStatus: null, error: "reported down" });
    expect(pushOutcome(5, { msg: "x".repeat(500) }).up).toBe(true);
    expect(pushOutcome(5, { status: "down", msg: "x".repeat(500) }).error!.length).toBe("reported down: ".length + 200);
    const fields = { intervalSeconds: 60, pushGrace: 30 };
    const state = () => ({ lastPushAt: null, tlsExpiresAt: null, pushWatch: { since: 0, missedAt: null } });
    expect(missedPush(fields, state(), 89_999)).toBeNull();
    expect(missedPush(fields, state(), 90_000)?.error).toBe("no push within 1 min + 30 s");
    expect(missedPush(fields, { ...state(), lastPushAt: 60_000 }, 90_000)).toBeNull();
  });
});

describe("/api/push/{token}", () => {
  test("GET and POST record pushes without a session; unknown tokens 404, paused 409, floods 429, bad status 400", async () => {
    const t = await testApp();
    const { token } = await t.signUp("admin");
    const created = await t.call<{ monitor: { id: number; pushToken: string } }>("POST", "/api/monitors", { token, body: { name: "backup", type: "push" } });
    expect(created.status).toBe(201);
    const push = created.body.monitor.pushToken;

    const up = await t.call("GET", `/api/push/${push}`);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ success: true, message: "Push recorded: up" });

    // A script may POST anything (a log, bad JSON): the body is not read.
    await Bun.sleep(1100);
    const down = await t.call("POST", `/api/push/${push}?status=down&msg=backup%20failed`, { raw: "{not json" });
    expect(down.status).toBe(200);
    const got = await t.call<{ monitor: { lastError: string; status: string } }>("GET", `/api/monitors/${created.body.monitor.id}`, { token });
    expect(got.body.monitor.lastError).toBe("reported down: backup failed");

    expect((await t.call("GET", `/api/push/${push}`)).status).toBe(429);
    expect((await t.call("GET", `/api/push/${"x".repeat(32)}`)).body).toMatchObject({ code: "PUSH_TOKEN_UNKNOWN" });
    expect((await t.call("GET", `/api/push/${"x".repeat(200)}`)).status).toBeOneOf([400, 404]);
    const bad = await t.call("GET", `/api/push/${push}?status=maybe`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("status must be up or down");

    await t.call("PUT", `/api/monitors/${created.body.monitor.id}`, { token, body: { active: false } });
    expect((await t.call("GET", `/api/push/${push}`)).body).toMatchObject({ code: "MONITOR_PAUSED" });

    // A new URL: the old one stops working.
    await t.call("PUT", `/api/monitors/${created.body.monitor.id}`, { token, body: { active: true } });
    const renewed = await t.call<{ monitor: { pushToken: string } }>("POST", `/api/monitors/${created.body.monitor.id}/push-token`, { token });
    expect(renewed.status).toBe(200);
    expect(renewed.body.monitor.pushToken).not.toBe(push);
    expect((await t.call("GET", `/api/push/${push}`)).status).toBe(404);
    await Bun.sleep(1100);
    expect((await t.call("GET", `/api/push/${renewed.body.monitor.pushToken}`)).status).toBe(200);

    // Not a push monitor: no URL, no regeneration, no manual check of a push monitor.
    const http = await t.call<{ monitor: { id: number; pushToken: null } }>("POST", "/api/monitors", { token, body: { name: "web", url: "http://127.0.0.1:9/" } });
    expect(http.body.monitor.pushToken).toBeNull();
    expect((await t.call("POST", `/api/monitors/${http.body.monitor.id}/push-token`, { token })).body).toMatchObject({ code: "NOT_PUSH_MONITOR" });
    expect((await t.call("POST", `/api/monitors/${created.body.monitor.id}/check`, { token })).body).toMatchObject({ code: "PUSH_NOT_CHECKED" });
    // A push token cannot be chosen by the client.
    const chosen = await t.call<{ monitor: { pushToken: string } }>("POST", "/api/monitors", { token, body: { name: "p2", type: "push", pushToken: "a".repeat(32) } });
    expect(chosen.body.monitor.pushToken).not.toBe("a".repeat(32));
  });

  test("ping= must be a whole number from 0 to 600000 (else 400, nothing stored); what is stored is what memory shows", async () => {
    const t = await testApp();
    const { token } = await t.signUp("admin");
    const created = await t.call<{ monitor: { id: number; pushToken: string } }>("POST", "/api/monitors", { token, body: { name: "backup", type: "push" } });
    const { id, pushToken } = created.body.monitor;
    for (const ping of ["-1", "1.5", "700000", "99999999999", "abc"]) {
      const bad = await t.call("GET", `/api/push/${pushToken}?ping=${ping}`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ success: false, code: "VALIDATION", message: "ping must be a whole number of milliseconds from 0 to 600000" });
    }
    expect(await t.services.monitors.recentChecks(id)).toEqual([]);
    expect((await t.call("GET", `/api/push/${pushToken}?ping=600000`)).status).toBe(200);
    await Bun.sleep(1100);
    expect((await t.call("GET", `/api/push/${pushToken}?ping=0`)).status).toBe(200);
    await Bun.sleep(1100);
    // Uptime Kuma's push URL ends in an empty `ping=`: no response time, not a refusal.
    expect((await t.call("GET", `/api/push/${pushToken}?status=up&msg=OK&ping=`)).status).toBe(200);
    const ring = (await t.services.monitors.recentChecks(id))!.map((c) => c.responseTime);
    await t.services.monitors.series(id, "24h"); // flushes the writer
    const stored = await t.db.rows<{ response_time: number | null }>(sql`SELECT response_time FROM check_results WHERE monitor_id = ${id} ORDER BY time`);
    expect(ring).toEqual([600000, 0, null]);
    expect(stored.map((r) => r.response_time)).toEqual(ring);
  });

  test("a long msg= is cut to its first 200 characters and the failure recorded, not refused", async () => {
    const t = await testApp();
    const { token } = await t.signUp("admin");
    const created = await t.call<{ monitor: { id: number; pushToken: string } }>("POST", "/api/monitors", { token, body: { name: "backup", type: "push" } });
    const { id, pushToken } = created.body.monitor;
    const msg = "disk full on /var/backups; ".repeat(200); // 5 400 characters
    const res = await t.call("POST", `/api/push/${pushToken}?status=down&msg=${encodeURIComponent(msg)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: "Push recorded: down" });
    const kept = msg.replace(/\s+/g, " ").trim().slice(0, 200);
    expect(t.services.monitors.get(id)).toMatchObject({ status: "down", lastError: `reported down: ${kept}` });
    expect((await t.services.monitors.recentChecks(id))!.at(-1)).toMatchObject({ status: "down", error: `reported down: ${kept}` });
  });
});
