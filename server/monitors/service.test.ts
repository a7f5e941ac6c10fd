import { afterEach, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { createEventBus, type EventMap } from "../events";
import { fakeClock, type FakeClock } from "../test-support";
import type { TlsProbe } from "./tls-probe";
import type { Checker } from "./types/http/http";
import { slotAtOrAfter } from "./scheduler";
import { createMonitorService } from "./service";
import { countRows, reopenableDb } from "./test-db";

const MIN = 60_000;

/** A checker whose answer per URL the test sets ("up" by default), recording each call's time. */
function scripted(clock: FakeClock) {
  const answers = new Map<string, "up" | "down">();
  const calls: { url: string; at: number }[] = [];
  const checker: Checker = async (target) => {
    calls.push({ url: target.url, at: clock.now() });
    const up = (answers.get(target.url) ?? "up") === "up";
    return { time: clock.now(), up, responseTime: up ? 12 : null, httpStatus: up ? 200 : null, error: up ? null : "connection refused" };
  };
  return { answers, calls, checker, callsTo: (url: string) => calls.filter((c) => c.url === url) };
}

const opened: Db[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close().catch(() => {});
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A service over a (fresh test) database, loaded as createServices would. */
async function setup(given?: Db, clock = fakeClock(), extra: Partial<Parameters<typeof createMonitorService>[0]> = {}) {
  const db = given ?? (await testDb());
  opened.push(db);
  const bus = createEventBus();
  const events: { type: keyof EventMap; payload: unknown }[] = [];
  for (const type of ["monitor.status", "monitor.check", "monitor.change"] as const) bus.on(type, (payload) => events.push({ type, payload }));
  const script = scripted(clock);
  const service = createMonitorService({ db, bus, clock, checker: script.checker, tls: false, ...extra });
  await service.load();
  const statusEvents = () => events.filter((e) => e.type === "monitor.status").map((e) => e.payload as EventMap["monitor.status"]);
  return { db, clock, bus, events, statusEvents, service, ...script };
}

/** A database to open again, as a restarted process would (a file, or a PostgreSQL schema). */
async function reopenable() {
  const r = await reopenableDb();
  cleanups.push(r.cleanup);
  return r;
}

describe("status and the retry rule", () => {
  test("pending until the first result, then up; one failure is tolerated, the second makes it down", async () => {
    const { service, answers, statusEvents } = await setup();
    const m = await service.create({ name: "api", url: "http://svc.test/", interval: 1, retries: 1 });
    expect(m.status).toBe("pending");
    await service.checkNow(m.id);
    expect(service.get(m.id)!.status).toBe("up");

    answers.set("http://svc.test/", "down");
    await service.checkNow(m.id);
    expect(service.get(m.id)).toMatchObject({ status: "up", consecutiveFailures: 1, lastError: "connection refused" });
    await service.checkNow(m.id);
    expect(service.get(m.id)).toMatchObject({ status: "down", consecutiveFailures: 2 });
    await service.checkNow(m.id);
    answers.set("http://svc.test/", "up");
    await service.checkNow(m.id);
    expect(service.get(m.id)).toMatchObject({ status: "up", consecutiveFailures: 0, lastError: null });

    expect(statusEvents().map((e) => [e.from, e.to])).toEqual([
      ["pending", "up"],
      ["up", "down"],
      ["down", "up"],
    ]);
    expect(statusEvents()[1]).toMatchObject({ monitorId: m.id, name: "api", error: "connection refused", responseTime: null });
  });

  test("retries 0: the first failure is down; a new monitor failing within its retries stays pending", async () => {
    const { service, answers } = await setup();
    answers.set("http://a.test/", "down");
    answers.set("http://b.test/", "down");
    const a = await service.create({ name: "a", url: "http://a.test/", retries: 0 });
    const b = await service.create({ name: "b", url: "http://b.test/", retries: 2 });
    await service.checkNow(a.id);
    await service.checkNow(b.id);
    expect(service.get(a.id)!.status).toBe("down");
    expect(service.get(b.id)!.status).toBe("pending");
    await service.checkNow(b.id);
    expect(service.get(b.id)!.status).toBe("pending");
    await service.checkNow(b.id);
    expect(service.get(b.id)!.status).toBe("down");
  });

  test("every check is an event with the state after it; the list's uptime follows", async () => {
    const { service, answers, events } = await setup();
    const m = await service.create({ name: "x", url: "http://x.test/", retries: 0 });
    await service.checkNow(m.id);
    answers.set("http://x.test/", "down");
    await service.checkNow(m.id);
    const checks = events.filter((e) => e.type === "monitor.check").map((e) => e.payload as EventMap["monitor.check"]);
    expect(checks.map((c) => [c.result.status, c.status])).toEqual([
      ["up", "up"],
      ["down", "down"],
    ]);
    expect(checks[1].uptime24h).toBe(50);
    expect(service.get(m.id)!.uptime24h).toBe(50);
    expect(service.counts()).toMatchObject({ totalMonitors: 1, activeMonitors: 1, down: 1, up: 0 });
  });
});

describe("scheduling through the service", () => {
  test("a new monitor is checked at once, then every interval", async () => {
    const { service, clock, callsTo } = await setup();
    service.start({ maintenanceDelayMs: 3_600_000 });
    const t0 = clock.now();
    await service.create({ name: "x", url: "http://x.test/", interval: 1 });
    await clock.advance(3 * MIN + 5000);
    const times = callsTo("http://x.test/").map((c) => c.at);
    expect(times[0]).toBe(t0);
    expect(times.length).toBeGreaterThanOrEqual(4);
    for (let i = 2; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(MIN);
    await service.stop();
  });

  test("a 20 s monitor is checked every 20 s", async () => {
    const { service, clock, callsTo } = await setup();
    service.start({ maintenanceDelayMs: 3_600_000 });
    const m = await service.create({ name: "x", url: "http://x.test/", intervalSeconds: 20 });
    expect(m).toMatchObject({ intervalSeconds: 20, timeout: 16, retryIntervalSeconds: null });
    await clock.advance(2 * MIN);
    const times = callsTo("http://x.test/").map((c) => c.at);
    expect(times.length).toBeGreaterThanOrEqual(6);
    for (let i = 2; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(20_000);
    await service.stop();
  });

  test("a failure within the retries is retried every retry interval; down or recovered, back to the interval", async () => {
    const { service, clock, callsTo, answers } = await setup();
    service.start({ maintenanceDelayMs: 3_600_000 });
    const m = await service.create({ name: "x", url: "http://x.test/", intervalSeconds: 60, retryIntervalSeconds: 10, retries: 3 });
    await clock.advance(2 * MIN);
    answers.set("http://x.test/", "down");
    const before = callsTo("http://x.test/").length;
    await clock.advance(3 * MIN);
    const failing = callsTo("http://x.test/").slice(before).map((c) => c.at);
    // The first failure on the 60 s grid, three retries 10 s apart, then down: back on its 60 s grid (not sooner
    // than a retry interval after the last retry).
    expect(failing.slice(1, 4).map((t, i) => t - failing[i])).toEqual([10_000, 10_000, 10_000]);
    expect(failing[4] - failing[3]).toBeGreaterThanOrEqual(10_000);
    expect(failing[4]).toBe(slotAtOrAfter(failing[4], m.id, MIN));
    expect(failing[5] - failing[4]).toBe(60_000);
    expect(service.get(m.id)).toMatchObject({ status: "down" });
    expect(service.scheduler.retrying(m.id)).toBe(false);

    answers.set("http://x.test/", "up");
    await clock.advance(2 * MIN);
    expect(service.get(m.id)).toMatchObject({ status: "up", consecutiveFailures: 0 });
    const recovered = callsTo("http://x.test/").map((c) => c.at).slice(-2);
    expect(recovered[1] - recovered[0]).toBe(60_000);
    await service.stop();
  });

  test("pause stops the checks at once; resume checks at once and continues", async () => {
    const { service, clock, callsTo } = await setup();
    service.start({ maintenanceDelayMs: 3_600_000 });
    const m = await service.create({ name: "x", url: "http://x.test/", interval: 1 });
    await clock.advance(2 * MIN);
    await service.update(m.id, { active: false });
    const n = callsTo("http://x.test/").length;
    await clock.advance(5 * MIN);
    expect(callsTo("http://x.test/")).toHaveLength(n);
    expect(service.get(m.id)!.active).toBe(false);
    expect(service.counts()).toMatchObject({ activeMonitors: 0, pausedMonitors: 1 });

    const resumedAt = clock.now();
    await service.update(m.id, { active: true });
    await clock.advance(2 * MIN);
    const after = callsTo("http://x.test/").slice(n);
    expect(after[0].at).toBe(resumedAt);
    expect(after.length).toBeGreaterThanOrEqual(2);
    await service.stop();
  });

  test("an edit of the check runs it at once on the new interval; a rename does not", async () => {
    const { service, clock, callsTo } = await setup();
    service.start({ maintenanceDelayMs: 3_600_000 });
    const m = await service.create({ name: "x", url: "http://x.test/", interval: 60 });
    await clock.advance(10 * MIN);
    expect(callsTo("http://x.test/")).toHaveLength(1);
    await service.update(m.id, { name: "renamed" });
    await clock.advance(MIN);
    expect(callsTo("http://x.test/")).toHaveLength(1);

    const editedAt = clock.now();
    await service.update(m.id, { url: "http://y.test/", interval: 1 });
    await clock.advance(0);
    expect(callsTo("http://y.test/").map((c) => c.at)).toEqual([editedAt]);
    expect(service.scheduler.nextDue(m.id)).toBe(slotAtOrAfter(editedAt + 5000, m.id, MIN));
    await clock.advance(5 * MIN);
    expect(callsTo("http://y.test/").length).toBeGreaterThanOrEqual(5);
    expect(callsTo("http://x.test/")).toHaveLength(1);
    await service.stop();
  });

  test("delete stops the checks and drops queued results", async () => {
    const { service, clock, callsTo, db } = await setup();
    service.start({ maintenanceDelayMs: 3_600_000 });
    const m = await service.create({ name: "x", url: "http://x.test/", interval: 1 });
    await clock.advance(0);
    expect(await service.remove(m.id)).toBe(true);
    expect(await service.remove(m.id)).toBe(false);
    await clock.advance(5 * MIN);
    expect(callsTo("http://x.test/")).toHaveLength(1);
    await service.writer.flush();
    expect(await countRows(db, "check_results")).toBe(0);
    await service.stop();
  });
});

describe("re-reading the monitors", () => {
  test("a check running while the monitors are re-read (a node's resync) still counts, scheduled or on demand", async () => {
    const clock = fakeClock();
    let release = () => {};
    let gate = Promise.resolve();
    const hold = () => (gate = new Promise<void>((r) => (release = r)));
    const checker: Checker = async () => {
      await gate;
      return { time: clock.now(), up: true, responseTime: 5, httpStatus: 200, error: null };
    };
    const { service, db } = await setup(undefined, clock, { checker });
    service.start({ maintenanceDelayMs: 3_600_000 });
    hold();
    const m = await service.create({ name: "api", url: "http://svc.test/", interval: 1 });
    await clock.advance(0); // its first check starts, and waits
    await service.resync();
    release();
    await Bun.sleep(5);
    expect(service.get(m.id)!.status).toBe("up");
    hold();
    const onDemand = service.checkNow(m.id);
    await Bun.sleep(5);
    await service.resync();
    release();
    expect((await onDemand)?.result.status).toBe("up");
    await service.writer.flush();
    expect(await countRows(db, "check_results")).toBe(2);
    await service.stop();
  });

  test("a re-read plans the monitors another node changed (its message lost): checked at once, on the new settings", async () => {
    const { service, clock, callsTo, db } = await setup();
    service.start({ maintenanceDelayMs: 3_600_000 });
    const m = await service.create({ name: "x", url: "http://x.test/", interval: 1 });
    await clock.advance(0);
    expect(callsTo("http://x.test/")).toHaveLength(1);
    await db.orm.update(db.t.monitors).set({ settings: { url: "http://y.test/" }, intervalSeconds: 20 }).where(eq(db.t.monitors.id, m.id));
    await service.resync();
    await clock.advance(0);
    expect(callsTo("http://y.test/")).toHaveLength(1);
    await clock.advance(60_000);
    const times = callsTo("http://y.test/").map((c) => c.at);
    expect(times.length).toBeGreaterThanOrEqual(3); // at once, then every 20 s (not every minute)
    expect(times.at(-1)! - times.at(-2)!).toBe(20_000);
    expect(callsTo("http://x.test/")).toHaveLength(1);
    await service.stop();
  });
});

describe("restart", () => {
  test("a new service over the same database resumes each monitor's grid, state and history", async () => {
    const database = await reopenable();
    const clock = fakeClock();
    const first = await setup(await database.open(), clock);
    first.service.start({ maintenanceDelayMs: 3_600_000 });
    const ids = [
      (await first.service.create({ name: "a", url: "http://a.test/", interval: 1 })).id,
      (await first.service.create({ name: "b", url: "http://b.test/", interval: 5 })).id,
      (await first.service.create({ name: "c", url: "http://c.test/", interval: 1, active: false })).id,
    ];
    first.answers.set("http://b.test/", "down");
    await clock.advance(12 * MIN);
    const before = ids.map((id) => first.service.get(id)!);
    expect(before.map((m) => m.status)).toEqual(["up", "down", "pending"]);
    await first.service.stop();
    await first.db.close();

    clock.jump(30_000);
    const second = await setup(await database.open(), clock);
    const after = ids.map((id) => second.service.get(id)!);
    // Status, failures, last result and uptime come back; the paused one stays paused and unscheduled.
    for (const [i, m] of after.entries()) {
      expect(m).toMatchObject({
        status: before[i].status,
        consecutiveFailures: before[i].consecutiveFailures,
        lastCheckedAt: before[i].lastCheckedAt,
        responseTime: before[i].responseTime,
        uptime24h: before[i].uptime24h,
        active: before[i].active,
      });
    }
    expect(second.service.scheduler.has(ids[2])).toBe(false);
    // Same grid as before the restart: the next slot is on the monitor's own phase, within one interval.
    for (const [i, id] of ids.slice(0, 2).entries()) {
      const interval = [1, 5][i] * MIN;
      const next = second.service.scheduler.nextDue(id)!;
      expect(next).toBe(slotAtOrAfter(clock.now(), id, interval));
    }
    second.service.start({ maintenanceDelayMs: 3_600_000 });
    await clock.advance(5 * MIN);
    expect(second.callsTo("http://a.test/").length).toBeGreaterThanOrEqual(5);
    expect(second.callsTo("http://b.test/").length).toBe(1);
    expect(second.callsTo("http://c.test/").length).toBe(0);
    await second.service.stop();
    expect(await countRows(second.db, "check_results")).toBe(first.calls.length + second.calls.length);
  });

  test("after a crash (no clean stop) the last result is recovered from the results written", async () => {
    const database = await reopenable();
    const clock = fakeClock();
    const first = await setup(await database.open(), clock);
    const id = (await first.service.create({ name: "a", url: "http://a.test/" })).id;
    await first.service.checkNow(id);
    clock.jump(MIN);
    await first.service.checkNow(id);
    await first.service.writer.flush(); // results written, the row's last_checked_at not (it only changes on status changes)
    await first.db.close();
    const second = await setup(await database.open(), clock);
    expect(second.service.get(id)).toMatchObject({ status: "up", lastCheckedAt: clock.now(), responseTime: 12 });
  });
});

describe("writes", () => {
  test("results are written in batches, not one transaction per check", async () => {
    const { service, clock, db } = await setup(undefined, undefined, { writer: { flushMs: 1000 } });
    service.start({ maintenanceDelayMs: 3_600_000 });
    for (let i = 0; i < 50; i++) await service.create({ name: `m${i}`, url: `http://m${i}.test/`, interval: 1 });
    await clock.advance(0);
    await service.writer.idle();
    expect(await countRows(db, "check_results")).toBe(0);
    await clock.advance(1000);
    await service.writer.idle();
    // The 50 first checks: one transaction.
    expect(await countRows(db, "check_results")).toBe(50);
    expect(service.writer.stats()).toMatchObject({ written: 50, flushes: 1 });
    await clock.advance(2 * MIN);
    await service.writer.idle();
    // Then at most one transaction per second, however many checks landed in it.
    const { written, flushes } = service.writer.stats();
    expect(written).toBeGreaterThanOrEqual(100);
    expect(flushes).toBeLessThanOrEqual(1 + 120);
    await service.stop();
  });

  test("stop writes what is pending", async () => {
    const { service, db } = await setup();
    const m = await service.create({ name: "x", url: "http://x.test/" });
    await service.checkNow(m.id);
    await service.stop();
    expect(await countRows(db, "check_results")).toBe(1);
    const rows = await db.rows<{ status: string; checked: unknown }>(sql`SELECT status, last_checked_at IS NOT NULL AS checked FROM monitors`);
    expect(rows.map((r) => ({ ...r, checked: Boolean(r.checked) }))).toEqual([{ status: "up", checked: true }]);
  });
});

describe("edits", () => {
  test("a check that lands while an edit is written leaves the entry unsaved (the row has the older state)", async () => {
    const { service, db, clock } = await setup();
    const m = await service.create({ name: "x", url: "http://x.test/", retries: 0 });
    const entry = service.store.get(m.id)!;
    const writing = service.store.update(m.id, { ...entry.fields, name: "renamed" }, clock.now());
    service.store.apply(entry, { time: clock.now(), up: false, responseTime: null, httpStatus: null, error: "connection refused" });
    expect(await writing).toBe(entry);
    expect(entry.unsaved).toBe(true);
    expect(await db.rows(sql`SELECT name, status FROM monitors`)).toEqual([{ name: "renamed", status: "pending" }]);
    // Without a race the row holds memory's state.
    await service.update(m.id, { name: "again" });
    expect(entry.unsaved).toBe(false);
    await service.writer.flush();
    expect(await db.rows(sql`SELECT name, status FROM monitors`)).toEqual([{ name: "again", status: "down" }]);
  });

  test("edits of one monitor run one after the other: each starts from the one before", async () => {
    const { service } = await setup();
    const m = await service.create({ name: "x", url: "http://x.test/", interval: 5, timeout: 30 });
    // The second depends on the first's interval: on its own (interval 5) a 60 s timeout is fine, after it not.
    const [first, second] = await Promise.allSettled([service.update(m.id, { interval: 1 }), service.update(m.id, { timeout: 60 })]);
    expect(first.status).toBe("fulfilled");
    expect(second).toMatchObject({ status: "rejected", reason: { code: "TIMEOUT_TOO_LONG" } });
    expect(service.get(m.id)).toMatchObject({ interval: 1, timeout: 30 });
    const [renamed, removed] = await Promise.all([service.update(m.id, { name: "y" }), service.remove(m.id)]);
    expect([renamed?.name, removed, service.get(m.id)]).toEqual(["y", true, undefined]);
  });
});

describe("TLS expiry", () => {
  test("https monitors get the certificate expiry from the probe, kept in their state and row", async () => {
    const lookups: string[] = [];
    const fakeTls = {
      get: (url: string, onFound: (e: number | null) => void) => {
        lookups.push(url);
        queueMicrotask(() => onFound(Date.UTC(2027, 0, 1)));
        return undefined;
      },
      clear: () => {},
    } as TlsProbe;
    const { service, db } = await setup(undefined, undefined, { tls: fakeTls });
    const https = await service.create({ name: "s", url: "https://secure.test/" });
    const http = await service.create({ name: "p", url: "http://plain.test/" });
    await service.checkNow(https.id);
    await service.checkNow(http.id);
    await Bun.sleep(0);
    expect(lookups).toEqual(["https://secure.test/"]);
    expect(service.get(https.id)!.tlsExpiresAt).toBe(Date.UTC(2027, 0, 1));
    expect(service.get(http.id)!.tlsExpiresAt).toBeNull();
    await service.writer.flush();
    expect(await db.rows(sql`SELECT tls_expires_at AS t FROM monitors WHERE id = ${https.id}`)).toEqual([{ t: Date.UTC(2027, 0, 1) }]);
  });
});
