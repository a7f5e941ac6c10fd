// Intervals in seconds, the retry interval and fractional timeouts through the API, and the legacy `interval`
// (minutes) older clients send and read.
import { afterAll, describe, expect, test } from "bun:test";
import { testApp } from "../test-support";
import type { PublicMonitor } from "./public";
import { startTarget } from "./test-target";

const target = startTarget();
afterAll(() => target.stop());

async function signedIn() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  return { ...t, token: admin.token };
}

const valid = () => ({ name: "Shop", url: target.url("/ok") });

describe("intervalSeconds, retryIntervalSeconds and timeout", () => {
  test("a 20 s monitor with a 5 s retry interval and a 0.8 s timeout reads back as sent, interval in minutes beside", async () => {
    const { call, token } = await signedIn();
    const res = await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", {
      token,
      body: { ...valid(), intervalSeconds: 20, retryIntervalSeconds: 5, timeout: 0.8 },
    });
    expect(res.status).toBe(201);
    expect(res.body.monitor).toMatchObject({ intervalSeconds: 20, retryIntervalSeconds: 5, timeout: 0.8, interval: 1 / 3 });
    const got = (await call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${res.body.monitor.id}`, { token })).body.monitor;
    expect(got).toMatchObject({ intervalSeconds: 20, retryIntervalSeconds: 5, timeout: 0.8 });
  });

  test("a new monitor given no timeout gets 0.8 × its shortest interval, at most 30 s", async () => {
    const { call, token } = await signedIn();
    const timeoutOf = async (body: Record<string, unknown>) =>
      (await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), ...body } })).body.monitor.timeout;
    expect(await timeoutOf({ intervalSeconds: 1 })).toBe(0.8);
    expect(await timeoutOf({ intervalSeconds: 20 })).toBe(16);
    expect(await timeoutOf({ intervalSeconds: 60, retryIntervalSeconds: 2 })).toBe(1.6);
    expect(await timeoutOf({ intervalSeconds: 300 })).toBe(30);
    expect(await timeoutOf({})).toBe(30);
  });

  test("retryIntervalSeconds null goes back to the interval", async () => {
    const { call, token } = await signedIn();
    const m = (await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), retryIntervalSeconds: 30 } })).body.monitor;
    const res = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${m.id}`, { token, body: { retryIntervalSeconds: null } });
    expect(res.body.monitor.retryIntervalSeconds).toBeNull();
  });

  const bad: [string, Record<string, unknown>, string, RegExp][] = [
    ["intervalSeconds 0", { intervalSeconds: 0 }, "VALIDATION", /intervalSeconds must be a whole number of seconds from 1 to 86400/],
    ["intervalSeconds 86401", { intervalSeconds: 86_401 }, "VALIDATION", /intervalSeconds must be/],
    ["intervalSeconds 1.5", { intervalSeconds: 1.5 }, "VALIDATION", /intervalSeconds must be/],
    ["intervalSeconds as words", { intervalSeconds: "twenty" }, "VALIDATION", /intervalSeconds must be/],
    ["retryIntervalSeconds 0", { retryIntervalSeconds: 0 }, "VALIDATION", /retryIntervalSeconds must be null or/],
    ["retryIntervalSeconds 86401", { retryIntervalSeconds: 86_401 }, "VALIDATION", /retryIntervalSeconds must be/],
    ["retryIntervalSeconds 2.5", { retryIntervalSeconds: 2.5 }, "VALIDATION", /retryIntervalSeconds must be/],
    ["timeout 0.05", { timeout: 0.05 }, "VALIDATION", /Timeout must be a number of seconds from 0.1 to 60/],
    ["timeout 60.5", { timeout: 60.5 }, "VALIDATION", /Timeout must be/],
    ["timeout equal to a 20 s interval", { intervalSeconds: 20, timeout: 20 }, "TIMEOUT_TOO_LONG", /shorter than the interval/],
    ["timeout above a 1 s interval", { intervalSeconds: 1, timeout: 1.5 }, "TIMEOUT_TOO_LONG", /shorter than the interval/],
    ["timeout not below the retry interval", { intervalSeconds: 60, retryIntervalSeconds: 5, timeout: 5 }, "TIMEOUT_TOO_LONG", /and the retry interval/],
    ["interval and intervalSeconds disagreeing", { interval: 1, intervalSeconds: 20 }, "INTERVAL_MISMATCH", /disagree/],
    ["interval 1441 minutes", { interval: 1441 }, "VALIDATION", /Interval must be/],
    ["interval not whole seconds", { interval: 0.01 }, "VALIDATION", /whole number of seconds/],
  ];

  test.each(bad)("POST with %s is refused, nothing created", async (_what, body, code, message) => {
    const { call, token } = await signedIn();
    const res = await call("POST", "/api/monitors", { token, body: { ...valid(), ...body } });
    expect({ status: res.status, success: res.body.success, code: res.body.code }).toEqual({ status: 400, success: false, code });
    expect(res.body.message).toMatch(message);
    expect((await call<{ monitors: unknown[] }>("GET", "/api/monitors", { token })).body.monitors).toHaveLength(0);
  });

  test("PUT: shortening the interval below the stored timeout is refused; with a shorter timeout it is taken", async () => {
    const { call, token } = await signedIn();
    const m = (await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: valid() })).body.monitor;
    const refused = await call("PUT", `/api/monitors/${m.id}`, { token, body: { intervalSeconds: 10 } });
    expect([refused.status, refused.body.code]).toEqual([400, "TIMEOUT_TOO_LONG"]);
    const ok = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${m.id}`, { token, body: { intervalSeconds: 10, timeout: 2.5 } });
    expect(ok.body.monitor).toMatchObject({ intervalSeconds: 10, timeout: 2.5, interval: 10 / 60 });
  });

  test("push monitors: a 20 s interval is taken whatever the timeout", async () => {
    const { call, token } = await signedIn();
    const res = await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { name: "job", type: "push", intervalSeconds: 20, timeout: 30 } });
    expect(res.status).toBe(201);
    expect(res.body.monitor.intervalSeconds).toBe(20);
  });
});

describe("the legacy interval in minutes", () => {
  test("older clients' whole minutes still work, and read back in minutes and seconds", async () => {
    const { call, token } = await signedIn();
    const m = (await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), interval: 2, timeout: 10 } })).body.monitor;
    expect(m).toMatchObject({ interval: 2, intervalSeconds: 120, timeout: 10 });
    const half = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${m.id}`, { token, body: { interval: 0.5 } });
    expect(half.body.monitor).toMatchObject({ interval: 0.5, intervalSeconds: 30 });
  });

  test("a GET → PUT round trip of a 20 s monitor (interval 1/3 min) keeps it as it was", async () => {
    const { call, token } = await signedIn();
    const m = (await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), intervalSeconds: 20, timeout: 1.5 } })).body.monitor;
    const read = (await call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${m.id}`, { token })).body.monitor;
    // What an old script does: send back what it read, with its change (here the name), through JSON.
    const body = JSON.parse(JSON.stringify({ ...read, name: "Shop 2" }));
    const put = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${m.id}`, { token, body });
    expect(put.status).toBe(200);
    expect(put.body.monitor).toMatchObject({ name: "Shop 2", intervalSeconds: 20, timeout: 1.5, retryIntervalSeconds: null });
    // Only the minutes sent (an old client that never heard of intervalSeconds).
    const minutesOnly = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${m.id}`, { token, body: { interval: read.interval } });
    expect(minutesOnly.body.monitor.intervalSeconds).toBe(20);
  });

  test("an old client changing the minutes of a monitor it read (both fields sent, disagreeing) is told, not ignored", async () => {
    const { call, token } = await signedIn();
    const m = (await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: valid() })).body.monitor;
    const res = await call("PUT", `/api/monitors/${m.id}`, { token, body: { ...m, interval: 10 } });
    expect([res.status, res.body.code]).toEqual([400, "INTERVAL_MISMATCH"]);
    expect((await call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${m.id}`, { token })).body.monitor.intervalSeconds).toBe(300);
  });
});
