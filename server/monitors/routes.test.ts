import { afterAll, describe, expect, test } from "bun:test";
import { createServices } from "../app";
import { testDb } from "../db/test-db";
import { testApp } from "../test-support";
import type { DashboardCounts, MonitorHistory, MonitorSeries, PublicMonitor, CheckResult, LiveMessage } from "./public";
import { insertResults } from "./test-db";
import { startTarget } from "./test-target";

const target = startTarget();
afterAll(() => target.stop());

async function signedIn() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const user = await t.signUp("bob");
  return { ...t, admin: admin.token, token: user.token };
}

const valid = () => ({ name: "Example API", url: target.url("/ok") });

describe("who may call what", () => {
  test("anonymous callers get 401 on every monitor call", async () => {
    const { call } = await signedIn();
    for (const [method, path] of [
      ["GET", "/api/monitors"],
      ["POST", "/api/monitors"],
      ["GET", "/api/monitors/1"],
      ["PUT", "/api/monitors/1"],
      ["DELETE", "/api/monitors/1"],
      ["POST", "/api/monitors/1/check"],
      ["GET", "/api/monitors/1/history"],
      ["GET", "/api/monitors/1/series"],
      ["GET", "/api/monitors/stats"],
      ["GET", "/api/dashboard"],
    ]) {
      const res = await call(method, path, { body: method === "POST" || method === "PUT" ? valid() : undefined });
      expect({ method, path, status: res.status, code: res.body.code }).toEqual({ method, path, status: 401, code: "UNAUTHORIZED" });
    }
  });

  test("every signed-in user shares the monitors; the stats are for admins", async () => {
    const { call, admin, token } = await signedIn();
    const created = await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: valid() });
    const seen = await call<{ monitors: PublicMonitor[] }>("GET", "/api/monitors", { token: admin });
    expect(seen.body.monitors.map((m) => m.id)).toEqual([created.body.monitor.id]);
    expect((await call("DELETE", `/api/monitors/${created.body.monitor.id}`, { token: admin })).status).toBe(200);
    expect((await call("GET", "/api/monitors/stats", { token })).status).toBe(403);
    expect((await call("GET", "/api/monitors/stats", { token: admin })).status).toBe(200);
  });
});

describe("CRUD", () => {
  test("create with defaults, read, list, update, delete", async () => {
    const { call, token } = await signedIn();
    const res = await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), name: "  Example API  " } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      message: "Monitor created",
      monitor: {
        name: "Example API",
        url: target.url("/ok"),
        method: "GET",
        interval: 5,
        timeout: 30,
        expectedStatus: "2xx",
        headers: [],
        body: null,
        active: true,
        retries: 1,
        followRedirects: true,
        status: "pending",
        responseTime: null,
        uptime24h: null,
        lastCheckedAt: null,
        tlsExpiresAt: null,
      },
    });
    const id = res.body.monitor.id;
    expect(typeof res.body.monitor.createdAt).toBe("number");

    const got = await call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${id}`, { token });
    expect(got.body.monitor).toEqual(res.body.monitor);

    const upd = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${id}`, {
      token,
      body: {
        method: "POST",
        body: '{"a":1}',
        headers: [{ name: "Content-Type", value: "application/json" }],
        expectedStatus: "200, 3XX, 200 - 204",
        interval: 1,
        timeout: 10,
        retries: 0,
        followRedirects: false,
      },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({
      message: "Monitor updated",
      monitor: { name: "Example API", method: "POST", body: '{"a":1}', expectedStatus: "200,3xx,200-204", interval: 1, timeout: 10, retries: 0, followRedirects: false },
    });

    const paused = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${id}`, { token, body: { active: false } });
    expect(paused.body.monitor.active).toBe(false);
    const dash = await call<DashboardCounts>("GET", "/api/dashboard", { token });
    expect(dash.body).toMatchObject({ success: true, totalMonitors: 1, activeMonitors: 0, pausedMonitors: 1, up: 0, down: 0, pending: 0 });

    const del = await call("DELETE", `/api/monitors/${id}`, { token });
    expect(del.body).toEqual({ success: true, message: "Monitor deleted" });
    expect((await call("GET", `/api/monitors/${id}`, { token })).status).toBe(404);
    expect((await call<{ monitors: unknown[] }>("GET", "/api/monitors", { token })).body.monitors).toEqual([]);
  });

  test("a 1-minute interval without a timeout gets 30 s; a body can be cleared with null", async () => {
    const { call, token } = await signedIn();
    const m = (await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), interval: 1, method: "PUT", body: "x" } })).body.monitor;
    expect([m.interval, m.timeout, m.body]).toEqual([1, 30, "x"]);
    const cleared = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${m.id}`, { token, body: { body: null, method: "GET" } });
    expect(cleared.body.monitor).toMatchObject({ body: null, method: "GET" });
  });

  test("freshConnection: off by default, set on create, turned on and off by PUT; anything but a boolean is refused", async () => {
    const { call, token } = await signedIn();
    const plain = (await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: valid() })).body.monitor;
    expect(plain.freshConnection).toBe(false);
    const created = await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), name: "Fresh", freshConnection: true } });
    expect(created.status).toBe(201);
    expect(created.body.monitor.freshConnection).toBe(true);
    const id = created.body.monitor.id;
    expect((await call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${id}`, { token })).body.monitor.freshConnection).toBe(true);
    const off = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${id}`, { token, body: { freshConnection: false } });
    expect(off.body.monitor.freshConnection).toBe(false);
    // An edit of anything else keeps it.
    const on = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${plain.id}`, { token, body: { freshConnection: true } });
    expect(on.body.monitor.freshConnection).toBe(true);
    const renamed = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${plain.id}`, { token, body: { name: "Renamed" } });
    expect(renamed.body.monitor).toMatchObject({ name: "Renamed", freshConnection: true });
    for (const bad of ["yes", 1, null]) {
      const res = await call("PUT", `/api/monitors/${id}`, { token, body: { freshConnection: bad } });
      expect({ status: res.status, success: res.body.success, code: res.body.code }).toEqual({ status: 400, success: false, code: "VALIDATION" });
      expect(res.body.message).toMatch(/^freshConnection must be true or false/);
    }
    expect((await call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${id}`, { token })).body.monitor.freshConnection).toBe(false);
  });
});

describe("manual check, history, series", () => {
  test("POST /:id/check runs the check, records it and returns it; history and series show it", async () => {
    const { call, token } = await signedIn();
    const id = (await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), retries: 0 } })).body.monitor.id;
    const ok = await call<{ result: CheckResult; monitor: PublicMonitor }>("POST", `/api/monitors/${id}/check`, { token });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, message: "Check passed", result: { monitorId: id, status: "up", httpStatus: 200, error: null }, monitor: { status: "up", uptime24h: 100 } });

    await call("PUT", `/api/monitors/${id}`, { token, body: { url: target.url("/status/503") } });
    const bad = await call<{ result: CheckResult; monitor: PublicMonitor }>("POST", `/api/monitors/${id}/check`, { token });
    expect(bad.body).toMatchObject({ message: "Check failed", result: { status: "down", httpStatus: 503, error: "status 503, expected 2xx" }, monitor: { status: "down" } });

    const list = await call<{ monitors: PublicMonitor[] }>("GET", "/api/monitors", { token });
    expect(list.body.monitors[0]).toMatchObject({ status: "down", httpStatus: 503, lastError: "status 503, expected 2xx" });
    expect(list.body.monitors[0].uptime24h).toBeLessThan(100);

    const history = await call<{ history: MonitorHistory }>("GET", `/api/monitors/${id}/history`, { token });
    expect(history.status).toBe(200);
    // The edit ran a check of its own (at once), so there are two or three checks.
    const day = history.body.history.day;
    expect(day.total).toBeGreaterThanOrEqual(2);
    expect(day).toMatchObject({ latest: { status: "down", httpStatus: 503 }, error: { message: "status 503, expected 2xx" } });
    expect(day.buckets).toHaveLength(24);
    expect(history.body.history.month.buckets).toHaveLength(30);
    expect(history.body.history.month.total).toBe(day.total);

    const series = await call<{ series: MonitorSeries }>("GET", `/api/monitors/${id}/series?range=24h`, { token });
    expect(series.body.series).toMatchObject({ range: "24h", resolution: "raw" });
    expect(series.body.series.times.length).toBe(day.total);
    const week = await call<{ series: MonitorSeries }>("GET", `/api/monitors/${id}/series?range=7d`, { token });
    expect(week.body.series.times).toHaveLength(168);
    const bad30 = await call("GET", `/api/monitors/${id}/series?range=1y`, { token });
    expect([bad30.status, bad30.body.code, bad30.body.message]).toEqual([400, "VALIDATION", "range must be 1h, 6h, 24h, 7d or 30d"]);
  });

  test("GET /:id/series?range=1h and 6h give every check of the last hour or six, raw; other ranges and ids are refused", async () => {
    const { call, token, db } = await signedIn();
    const id = (await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), active: false } })).body.monitor.id;
    const now = Date.now();
    const minutesAgo = [5, 30, 90, 300, 420]; // two in the last hour, four in the last six, all five in 24 h
    await insertResults(db, minutesAgo.map((m, i) => ({ monitorId: id, time: now - m * 60_000, up: true, responseTime: 100 + i, httpStatus: 200, error: null })));
    const series = async (range: string) => (await call<{ series: MonitorSeries }>("GET", `/api/monitors/${id}/series?range=${range}`, { token })).body.series;

    const hour = await series("1h");
    expect(hour).toMatchObject({ range: "1h", resolution: "raw", responseTimes: [101, 100], up: [1, 1] });
    expect(hour.to - hour.from).toBe(3_600_000);
    const six = await series("6h");
    expect(six).toMatchObject({ range: "6h", resolution: "raw", responseTimes: [103, 102, 101, 100] });
    expect(six.to - six.from).toBe(6 * 3_600_000);
    expect((await series("24h")).responseTimes).toHaveLength(5);

    for (const range of ["2h", "1H", "", "24"]) {
      const bad = await call("GET", `/api/monitors/${id}/series?range=${range}`, { token });
      expect({ range, status: bad.status, code: bad.body.code }).toEqual({ range, status: 400, code: "VALIDATION" });
    }
    const missing = await call("GET", `/api/monitors/${id + 99}/series?range=1h`, { token });
    expect([missing.status, missing.body.success]).toEqual([404, false]);
  });
});

describe("latest checks of chosen monitors", () => {
  test("GET /checks/recent?ids= answers for those monitors only (the list's rows in view); bad id lists are 400", async () => {
    const { call, token, db } = await signedIn();
    const create = async (name: string) => (await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), name, active: false } })).body.monitor.id;
    const [a, b, c] = [await create("a"), await create("b"), await create("c")];
    const result = (monitorId: number, time: number, up: boolean, responseTime: number | null) => ({ monitorId, time, up, responseTime, httpStatus: 200, error: null });
    await insertResults(db, [result(a, 1_000, true, 10), result(a, 2_000, false, null), result(c, 3_000, true, 30)]);
    type Recent = { checks: Record<string, { time: number; status: string }[]> };
    const some = await call<Recent>("GET", `/api/monitors/checks/recent?ids=${a},${b},${c + 100}`, { token });
    expect(some.status).toBe(200);
    expect(Object.keys(some.body.checks).sort()).toEqual([String(a), String(b)]);
    expect(some.body.checks[a]!.map((x) => [x.time, x.status])).toEqual([[1_000, "up"], [2_000, "down"]]);
    expect(some.body.checks[b]).toEqual([]);
    expect(Object.keys((await call<Recent>("GET", "/api/monitors/checks/recent", { token })).body.checks)).toHaveLength(3);

    const tooMany = Array.from({ length: 201 }, (_, i) => i + 1).join(",");
    for (const ids of ["", "0", "a", "1,,2", "1,", "-1", "1.5", tooMany]) {
      const bad = await call("GET", `/api/monitors/checks/recent?ids=${ids}`, { token });
      expect({ ids: ids.slice(0, 10), status: bad.status, code: bad.body.code }).toEqual({ ids: ids.slice(0, 10), status: 400, code: "VALIDATION" });
    }
  });
});

describe("bad input", () => {
  const cases: [string, Record<string, unknown>, number, string, RegExp][] = [
    ["no name", { url: "http://x.test/" }, 400, "VALIDATION", /Name is required/],
    ["a blank name", { name: "   ", url: "http://x.test/" }, 400, "VALIDATION", /Name is required/],
    ["a long name", { name: "n".repeat(101), url: "http://x.test/" }, 400, "VALIDATION", /at most 100/],
    ["no url", { name: "x" }, 400, "INVALID_URL", /URL is required/],
    ["javascript:", { name: "x", url: "javascript:alert(1)" }, 400, "INVALID_URL", /http:\/\/ or https:\/\//],
    ["file:", { name: "x", url: "file:///etc/passwd" }, 400, "INVALID_URL", /http:\/\/ or https:\/\//],
    ["ftp:", { name: "x", url: "ftp://example.com/" }, 400, "INVALID_URL", /http:\/\/ or https:\/\//],
    ["not a URL", { name: "x", url: "example.com" }, 400, "INVALID_URL", /valid http/],
    ["a URL with spaces", { name: "x", url: "http://exa mple.com/" }, 400, "INVALID_URL", /./],
    ["a 3000-character URL", { name: "x", url: "http://x.test/" + "a".repeat(3000) }, 400, "VALIDATION", /2048/],
    ["an unknown method", { ...{ name: "x", url: "http://x.test/" }, method: "TRACE" }, 400, "VALIDATION", /Method must be one of/],
    ["interval 0", { name: "x", url: "http://x.test/", interval: 0 }, 400, "VALIDATION", /Interval must be a number of minutes up to 1440/],
    ["interval 10^9", { name: "x", url: "http://x.test/", interval: 1e9 }, 400, "VALIDATION", /Interval/],
    ["interval 1.001 (not whole seconds)", { name: "x", url: "http://x.test/", interval: 1.001 }, 400, "VALIDATION", /whole number of seconds/],
    ["interval as words", { name: "x", url: "http://x.test/", interval: "five" }, 400, "VALIDATION", /Interval/],
    ["timeout 0", { name: "x", url: "http://x.test/", timeout: 0 }, 400, "VALIDATION", /Timeout must be/],
    ["timeout 61", { name: "x", url: "http://x.test/", timeout: 61 }, 400, "VALIDATION", /Timeout must be/],
    ["timeout = interval", { name: "x", url: "http://x.test/", interval: 1, timeout: 60 }, 400, "TIMEOUT_TOO_LONG", /shorter than the interval/],
    ["expected status 600", { name: "x", url: "http://x.test/", expectedStatus: "600" }, 400, "VALIDATION", /Expected status/],
    ["expected status text", { name: "x", url: "http://x.test/", expectedStatus: "ok" }, 400, "VALIDATION", /Expected status/],
    ["expected status range backwards", { name: "x", url: "http://x.test/", expectedStatus: "299-200" }, 400, "VALIDATION", /Expected status/],
    ["retries 11", { name: "x", url: "http://x.test/", retries: 11 }, 400, "VALIDATION", /Retries/],
    ["a body with GET", { name: "x", url: "http://x.test/", body: "hi" }, 400, "BODY_NOT_ALLOWED", /cannot have a body/],
    ["a 65 KB body", { name: "x", url: "http://x.test/", method: "POST", body: "b".repeat(65 * 1024) }, 400, "VALIDATION", /64 KB/],
    ["a header name with a space", { name: "x", url: "http://x.test/", headers: [{ name: "X Bad", value: "1" }] }, 400, "VALIDATION", /Header names/],
    ["a header value with CR/LF", { name: "x", url: "http://x.test/", headers: [{ name: "X-A", value: "1\r\nInjected: yes" }] }, 400, "VALIDATION", /line breaks/],
    ["a 5 KB header value", { name: "x", url: "http://x.test/", headers: [{ name: "X-A", value: "v".repeat(5000) }] }, 400, "VALIDATION", /4096/],
    ["Content-Length set by hand", { name: "x", url: "http://x.test/", headers: [{ name: "Content-Length", value: "3" }] }, 400, "RESERVED_HEADER", /set by Vigil/],
    ["10 000 headers", { name: "x", url: "http://x.test/", headers: Array.from({ length: 10_000 }, (_, i) => ({ name: `X-H${i}`, value: "1" })) }, 400, "VALIDATION", /At most 50 headers/],
    ["headers not a list", { name: "x", url: "http://x.test/", headers: { a: "b" } }, 400, "VALIDATION", /./],
    ["active not a boolean", { name: "x", url: "http://x.test/", active: "yes" }, 400, "VALIDATION", /active must be true or false/],
    ["freshConnection not a boolean", { name: "x", url: "http://x.test/", freshConnection: "yes" }, 400, "VALIDATION", /freshConnection must be true or false/],
  ];

  test.each(cases)("POST with %s is refused", async (_what, body, status, code, message) => {
    const { call, token } = await signedIn();
    const res = await call("POST", "/api/monitors", { token, body });
    expect({ status: res.status, success: res.body.success, code: res.body.code }).toEqual({ status, success: false, code });
    expect(res.body.message).toMatch(message);
    expect((await call<{ monitors: unknown[] }>("GET", "/api/monitors", { token })).body.monitors).toHaveLength(0);
  });

  test("expectedStatus may be sent as a number: 200 is the code 200; a number outside 100–599 is refused", async () => {
    const { call, token } = await signedIn();
    const res = await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), expectedStatus: 200 } });
    expect(res.status).toBe(201);
    expect(res.body.monitor.expectedStatus).toBe("200");
    const put = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${res.body.monitor.id}`, { token, body: { expectedStatus: 204 } });
    expect(put.body.monitor.expectedStatus).toBe("204");
    const bad = await call("POST", "/api/monitors", { token, body: { ...valid(), expectedStatus: 600 } });
    expect([bad.status, bad.body.code]).toEqual([400, "VALIDATION"]);
    expect(bad.body.message).toMatch(/^Expected status must be a code like 200/);
  });

  test("a value of the wrong type is refused with a message that says what was sent", async () => {
    const { call, token } = await signedIn();
    const interval = await call("POST", "/api/monitors", { token, body: { ...valid(), interval: "five" } });
    expect(interval.body.message).toBe('Interval must be a number of minutes up to 1440 that is a whole number of seconds (0.5 = 30 s) (got the text "five")');
    const active = await call("POST", "/api/monitors", { token, body: { ...valid(), active: "yes" } });
    expect(active.body.message).toBe('active must be true or false (got the text "yes")');
    const fresh = await call("POST", "/api/monitors", { token, body: { ...valid(), freshConnection: "yes" } });
    expect(fresh.body.message).toBe('freshConnection must be true or false (got the text "yes")');
    const retries = await call("POST", "/api/monitors", { token, body: { ...valid(), retries: [1] } });
    expect(retries.body.message).toMatch(/Retries .*\(got a list of 1\)/);
    // The URL is never repeated back: it may carry credentials.
    const url = await call("POST", "/api/monitors", { token, body: { ...valid(), url: 42 } });
    expect(url.body.message).not.toContain("42");
  });

  test("PUT checks the merged result: a timeout at or above the (new) interval is refused and nothing changes", async () => {
    const { call, token } = await signedIn();
    const m = (await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), interval: 2, timeout: 60 } })).body.monitor;
    const res = await call("PUT", `/api/monitors/${m.id}`, { token, body: { interval: 1 } });
    expect([res.status, res.body.code]).toEqual([400, "TIMEOUT_TOO_LONG"]);
    const bad = await call("PUT", `/api/monitors/${m.id}`, { token, body: { url: "javascript:void(0)" } });
    expect([bad.status, bad.body.code]).toEqual([400, "INVALID_URL"]);
    expect((await call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${m.id}`, { token })).body.monitor).toMatchObject({ interval: 2, url: valid().url });
  });

  test("fields the API does not know (id, status…) are ignored", async () => {
    const { call, token } = await signedIn();
    const res = await call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { ...valid(), id: 77, status: "down", createdAt: 1, consecutiveFailures: 9 } });
    expect(res.status).toBe(201);
    expect(res.body.monitor).toMatchObject({ status: "pending", consecutiveFailures: 0 });
    expect(res.body.monitor.id).not.toBe(77);
    expect(res.body.monitor.createdAt).toBeGreaterThan(1);
    const upd = await call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${res.body.monitor.id}`, { token, body: { status: "up", lastError: "x" } });
    expect(upd.body.monitor).toMatchObject({ status: "pending", lastError: null });
  });

  test("bad JSON and a wrong content type are 400 and 415", async () => {
    const { call, token } = await signedIn();
    expect((await call("POST", "/api/monitors", { token, raw: "{nope" })).status).toBe(400);
    expect((await call("POST", "/api/monitors", { token, raw: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(415);
  });

  test.each(["abc", "0", "-1", "1.5", "1e3", "99999999999999999999"])("/api/monitors/%s is a 400", async (id) => {
    const { call, token } = await signedIn();
    for (const [method, suffix] of [["GET", ""], ["PUT", ""], ["DELETE", ""], ["POST", "/check"], ["GET", "/history"], ["GET", "/series"]]) {
      const res = await call(method, `/api/monitors/${id}${suffix}`, { token, body: method === "PUT" ? { name: "x" } : undefined });
      expect([method, suffix, res.status, res.body]).toEqual([method, suffix, 400, { success: false, code: "VALIDATION", message: "Invalid monitor id" }]);
    }
  });

  test("an unknown id is a 404 for every call", async () => {
    const { call, token } = await signedIn();
    for (const [method, suffix] of [["GET", ""], ["PUT", ""], ["DELETE", ""], ["POST", "/check"], ["GET", "/history"], ["GET", "/series"]]) {
      const res = await call(method, `/api/monitors/999${suffix}`, { token, body: method === "PUT" ? { name: "x" } : undefined });
      expect([method, suffix, res.status, res.body.code, res.body.message]).toEqual([method, suffix, 404, "MONITOR_NOT_FOUND", "Monitor not found"]);
    }
  });
});

describe("live push", () => {
  test("a signed-in browser receives status and check messages; a bad token is refused", async () => {
    const db = await testDb();
    const services = await createServices(db);
    const t = await testApp({ db, services });
    const { token } = await t.signUp("alice");
    t.app.listen({ hostname: "127.0.0.1", port: 0 });
    const port = t.app.server!.port;
    try {
      const refused = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live?token=not-a-token`);
        ws.onclose = (e) => resolve(e.code);
      });
      expect(refused).not.toBe(1000);
      const plain = await fetch(`http://127.0.0.1:${port}/api/live`, {
        headers: { upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" },
      });
      expect(plain.status).toBe(401);
      // Nobody connected: checks emit no live event at all.
      expect(services.events.has("monitor.check")).toBe(false);

      const messages: LiveMessage[] = [];
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live?token=${token}`);
      ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
      await new Promise((resolve) => (ws.onopen = resolve));
      for (let i = 0; i < 50 && messages.length === 0; i++) await Bun.sleep(10);
      expect(messages[0].type).toBe("hello");
      expect(services.events.has("monitor.check")).toBe(true);

      const created = await t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: valid() });
      await t.call("POST", `/api/monitors/${created.body.monitor.id}/check`, { token });
      for (let i = 0; i < 100 && !messages.some((m) => m.type === "monitor.status"); i++) await Bun.sleep(10);
      const types = messages.map((m) => m.type);
      expect(types).toContain("monitor.change");
      expect(types).toContain("monitor.check");
      const status = messages.find((m) => m.type === "monitor.status")!;
      expect(status.data).toMatchObject({ monitorId: created.body.monitor.id, name: "Example API", from: "pending", to: "up" });

      // A session that ends (signed out everywhere by a password change) is closed with 4001 at once
      // (auth/live-sessions.test.ts covers every way a session ends).
      const closed = new Promise<number>((resolve) => (ws.onclose = (e) => resolve(e.code)));
      await t.call("POST", "/api/users/1/change-password", { token, body: { currentPassword: "correct horse", newPassword: "another horse" } });
      expect(await closed).toBe(4001);
      // The last browser gone, the bus is not heard any more.
      for (let i = 0; i < 100 && services.events.has("monitor.check"); i++) await Bun.sleep(10);
      expect(services.events.has("monitor.check")).toBe(false);
    } finally {
      services.live.close();
      await t.app.stop(true);
      await services.monitors.stop();
    }
  });
});
