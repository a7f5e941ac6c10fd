import { afterAll, describe, expect, test } from "bun:test";
import { createServices } from "../app";
import { testDb } from "../db/test-db";
import { testApp } from "../test-support";
import type { PublicMonitor, RecentCheck } from "./public";
import { sql } from "drizzle-orm";
import type { CheckOutcome } from "./types/check-type";
import { createRecentChecks, RECENT_CHECKS } from "./recent";
import { insertResults } from "./test-db";
import { startTarget } from "./test-target";

const target = startTarget();
afterAll(() => target.stop());

type Recent = { checks: Record<string, RecentCheck[]> };

async function setup(given?: Awaited<ReturnType<typeof testDb>>) {
  const db = given ?? (await testDb());
  const services = await createServices(db);
  const t = await testApp({ db, services });
  const { token } = await t.signUp("alice");
  const create = async (name: string, path: string) =>
    (await t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { name, url: target.url(path), retries: 0 } })).body.monitor.id;
  const check = (id: number) => t.call("POST", `/api/monitors/${id}/check`, { token });
  return { ...t, db, token, create, check };
}

describe("the last 50 checks", () => {
  test("need a session; an unknown or malformed id is refused", async () => {
    const { call, token } = await setup();
    for (const path of ["/api/monitors/checks/recent", "/api/monitors/1/checks"]) {
      const res = await call("GET", path);
      expect([path, res.status, res.body.code]).toEqual([path, 401, "UNAUTHORIZED"]);
    }
    const unknown = await call("GET", "/api/monitors/999/checks", { token });
    expect([unknown.status, unknown.body.success, unknown.body.code]).toEqual([404, false, "MONITOR_NOT_FOUND"]);
    expect((await call("GET", "/api/monitors/abc/checks", { token })).status).toBe(400);
  });

  test("oldest first, at most 50, failures with their status and error; the list has every monitor and follows new checks", async () => {
    const t = await setup();
    const ok = await t.create("ok", "/ok");
    const failing = await t.create("failing", "/status/500");
    const idle = await t.create("idle", "/ok");
    await t.call("PUT", `/api/monitors/${idle}`, { token: t.token, body: { active: false } });
    for (let i = 0; i < RECENT_CHECKS + 5; i++) await t.check(ok);
    await t.check(failing);

    const one = await t.call<{ checks: RecentCheck[] }>("GET", `/api/monitors/${ok}/checks`, { token: t.token });
    expect(one.status).toBe(200);
    expect(one.body.checks).toHaveLength(RECENT_CHECKS);
    const times = one.body.checks.map((c) => c.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(one.body.checks.every((c) => c.status === "up" && c.httpStatus === 200 && c.error === null && typeof c.responseTime === "number")).toBe(true);

    const all = await t.call<Recent>("GET", "/api/monitors/checks/recent", { token: t.token });
    expect(Object.keys(all.body.checks).map(Number).sort()).toEqual([ok, failing, idle].sort());
    expect(all.body.checks[idle]!.length).toBeLessThanOrEqual(1); // created then paused: at most its first check
    const failed = all.body.checks[failing]!.at(-1)!;
    expect(failed).toMatchObject({ status: "down", httpStatus: 500, error: "status 500, expected 2xx" });

    // A check after the first read lands in the ring at once.
    const before = all.body.checks[ok]!.at(-1)!.time;
    await t.check(ok);
    const after = await t.call<{ checks: RecentCheck[] }>("GET", `/api/monitors/${ok}/checks`, { token: t.token });
    expect(after.body.checks).toHaveLength(RECENT_CHECKS);
    expect(after.body.checks.at(-1)!.time).toBeGreaterThanOrEqual(before);
    expect(after.body.checks.at(-2)!.time).toBe(before);
  });

  test("a restart reads them back from the database; deleting a monitor drops them", async () => {
    const db = await testDb();
    const first = await setup(db);
    const id = await first.create("api", "/ok");
    for (let i = 0; i < 3; i++) await first.check(id);
    const seen = (await first.call<{ checks: RecentCheck[] }>("GET", `/api/monitors/${id}/checks`, { token: first.token })).body.checks;
    await first.services.monitors.writer.flush(); // what a shutdown does

    // A new process on the same database.
    const services = await createServices(db);
    const again = await testApp({ db, services });
    const { token } = await again.login("alice");
    const read = await again.call<{ checks: RecentCheck[] }>("GET", `/api/monitors/${id}/checks`, { token });
    expect(read.body.checks).toEqual(seen);

    expect((await again.call("DELETE", `/api/monitors/${id}`, { token })).status).toBe(200);
    expect((await again.call("GET", `/api/monitors/${id}/checks`, { token })).status).toBe(404);
    expect((await again.call<Recent>("GET", "/api/monitors/checks/recent", { token })).body.checks).toEqual({});
  });
});

describe("the first read of a ring", () => {
  test("checks recorded while it reads are neither lost nor doubled, written or not; readers at once share it", async () => {
    const db = await testDb();
    await db.exec(sql`INSERT INTO monitors (id, name, settings, interval, timeout, created_at, updated_at) VALUES (1, 'a', '{"url":"http://a.test/"}', 1, 10, 0, 0)`);
    const check = (time: number): CheckOutcome => ({ time, up: time % 2 === 0, responseTime: time, httpStatus: 200, error: time % 2 === 0 ? null : "down" });
    await insertResults(db, [1, 2, 3].map((t) => ({ ...check(t), monitorId: 1 })));
    let flushes = 0;
    // The writer's flush, as it may go: a check recorded before its batch is taken is written (and recorded), one
    // recorded after it is only recorded.
    const recent = createRecentChecks(db, async () => {
      if (flushes++ > 0) return;
      recent.add(1, check(4));
      await insertResults(db, [{ ...check(4), monitorId: 1 }]);
      recent.add(1, check(5));
    });
    const [first, second] = await Promise.all([recent.of([1]), recent.of([1, 1])]);
    expect(first.get(1)!.map((c) => c.time)).toEqual([1, 2, 3, 4, 5]);
    expect(second.get(1)).toEqual(first.get(1));
    expect(first.get(1)![3]).toEqual({ time: 4, status: "up", responseTime: 4, httpStatus: 200, error: null, maintenance: false });
    expect(first.get(1)![4]).toEqual({ time: 5, status: "down", responseTime: 5, httpStatus: 200, error: "down", maintenance: false });
    recent.add(1, check(6));
    expect((await recent.of([1])).get(1)!.map((c) => c.time)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(flushes).toBe(2); // the two first readers each asked; once in memory, no more
    await db.close();
  });
});
