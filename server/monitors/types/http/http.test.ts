import { afterAll, describe, expect, test } from "bun:test";
import { runCheck, tlsExpiryError, type CheckTarget } from "./http";
import { certificateExpiry, createTlsProbe } from "../../tls-probe";
import { describeError } from "../network-errors";
import { normaliseExpectedStatus, parseExpectedStatus, statusMatches } from "../../expected-status";
import { CHECK_ERROR_TEXT, parseCheckError } from "../../check-errors";
import { closedPort, selfSignedCert, startTarget } from "../../test-target";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";

const target = startTarget();
afterAll(() => target.stop());

const check = (path: string, over: Partial<CheckTarget> = {}) =>
  runCheck({ url: target.url(path), method: "GET", timeout: 5, expectedStatus: "2xx", headers: [], body: null, followRedirects: true, ...over });

describe("expected status", () => {
  test.each([
    ["2xx", 200, true],
    ["2xx", 204, true],
    ["2xx", 301, false],
    ["200", 200, true],
    ["200", 201, false],
    ["200,301", 301, true],
    ["200,3xx", 302, true],
    ["4xx", 404, true],
    ["5xx", 404, false],
    ["200-299", 200, true],
    ["200-299", 299, true],
    ["200-299", 300, false],
    ["200-204,301", 204, true],
    ["200-204,301", 205, false],
  ] as const)("%s with %d → %p", (expected, status, up) => {
    expect(statusMatches(expected, status)).toBe(up);
  });

  test("valid and invalid rules; the stored form", () => {
    for (const ok of ["200", "2xx", "2XX", "200-299", "200 - 299", "200,3xx, 404-404"]) expect(parseExpectedStatus(ok)).not.toBeNull();
    for (const bad of ["", "600", "299-200", "2xx-3xx", "200-", "ok", "200,,201", "6xx"]) expect(parseExpectedStatus(bad)).toBeNull();
    expect(normaliseExpectedStatus("200, 2XX,200 - 204,200")).toBe("200,2xx,200-204");
  });
});

describe("runCheck against a local target", () => {
  test("200 is up, with the response time and status", async () => {
    const r = await check("/ok");
    expect(r).toMatchObject({ up: true, httpStatus: 200, error: null });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    expect(r.responseTime).toBeLessThan(1000);
    expect(Math.abs(r.time - Date.now())).toBeLessThan(2000);
  });

  test("500 is down: status 500, expected 2xx", async () => {
    const r = await check("/status/500");
    expect(r).toMatchObject({ up: false, httpStatus: 500, error: "status 500, expected 2xx" });
    expect(r.responseTime).not.toBeNull();
  });

  test("an exact code that does not match is down; a class that matches is up", async () => {
    expect(await check("/status/201", { expectedStatus: "200" })).toMatchObject({ up: false, error: "status 201, expected 200" });
    expect(await check("/status/201", { expectedStatus: "2xx" })).toMatchObject({ up: true });
    expect(await check("/status/404", { expectedStatus: "404" })).toMatchObject({ up: true, httpStatus: 404 });
    expect(await check("/status/503", { expectedStatus: "200,3xx" })).toMatchObject({ up: false, error: "status 503, expected 200 or 3xx" });
  });

  test("a slow answer is a timeout after the monitor's timeout", async () => {
    const started = performance.now();
    const r = await check("/slow/3000", { timeout: 1 });
    expect(r).toMatchObject({ up: false, responseTime: null, error: "timeout after 1 s" });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test("connection refused", async () => {
    const r = await runCheck({ url: `http://127.0.0.1:${closedPort()}/`, method: "GET", timeout: 5, expectedStatus: "2xx", headers: [], body: null, followRedirects: true });
    expect(r).toMatchObject({ up: false, httpStatus: null, responseTime: null, error: "connection refused" });
  });

  test("an unknown host: could not resolve host", async () => {
    const r = await runCheck({ url: "http://no-such-host.invalid/", method: "GET", timeout: 5, expectedStatus: "2xx", headers: [], body: null, followRedirects: true });
    expect(r).toMatchObject({ up: false, error: "could not resolve host" });
  });

  test("redirects are followed by default, or answered as 3xx when not", async () => {
    expect(await check("/redirect")).toMatchObject({ up: true, httpStatus: 200 });
    expect(await check("/redirect", { followRedirects: false })).toMatchObject({ up: false, httpStatus: 302, error: "status 302, expected 2xx" });
    expect(await check("/redirect", { followRedirects: false, expectedStatus: "3xx" })).toMatchObject({ up: true, httpStatus: 302 });
  });

  test("a redirect loop is down", async () => {
    const r = await check("/loop");
    expect(r.up).toBe(false);
    expect(r.error).toBeTruthy();
  });

  test("POST sends the body and the headers; HEAD sends neither body nor reads one", async () => {
    const before = target.seen.length;
    const post = await check("/echo", {
      method: "POST",
      body: '{"hello":"world"}',
      headers: [
        { name: "Content-Type", value: "application/json" },
        { name: "X-Token", value: "abc 123" },
      ],
    });
    expect(post.up).toBe(true);
    const seenPost = target.seen[before];
    expect(seenPost).toMatchObject({ method: "POST", body: '{"hello":"world"}' });
    expect(seenPost.headers).toMatchObject({ "content-type": "application/json", "x-token": "abc 123" });
    expect(seenPost.headers["user-agent"]).toMatch(/^Vigil\//);

    const head = await check("/echo", { method: "HEAD", headers: [{ name: "User-Agent", value: "custom-agent" }] });
    expect(head).toMatchObject({ up: true, httpStatus: 200 });
    expect(target.seen[before + 1]).toMatchObject({ method: "HEAD", body: "" });
    expect(target.seen[before + 1].headers["user-agent"]).toBe("custom-agent");
  });

  test("an endless body does not hang the check: a prefix is read and the rest cancelled", async () => {
    const started = performance.now();
    const r = await check("/endless", { timeout: 5 });
    expect(r).toMatchObject({ up: true, httpStatus: 200 });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test("10 MB of body is not read whole", async () => {
    const r = await check("/big");
    expect(r).toMatchObject({ up: true, httpStatus: 200 });
  });

  test("a body that trickles forever ends at the timeout, with the status it had", async () => {
    const r = await check("/trickle", { timeout: 1 });
    expect(r).toMatchObject({ up: false, httpStatus: 200, error: "timeout after 1 s" });
  });
});

describe("errors", () => {
  test.each([
    [{ name: "TimeoutError" }, "timeout after 7 s"],
    [{ code: "ECONNREFUSED" }, "connection refused"],
    [{ code: "ENOTFOUND" }, "could not resolve host"],
    [{ code: "CERT_HAS_EXPIRED" }, "TLS error: certificate has expired"],
    [{ code: "DEPTH_ZERO_SELF_SIGNED_CERT" }, "TLS error: self-signed certificate"],
    [{ code: "ECONNRESET" }, "connection reset by the server"],
    [{ message: "something\nodd   happened" }, "something odd happened"],
  ])("%j → %s", (error, text) => {
    expect(describeError(error, 7)).toBe(text);
  });

  test("every sentence maps back to a stable code with its parameters (the UI translates by code)", () => {
    expect(parseCheckError("timeout after 7 s")).toEqual({ code: "TIMEOUT", params: { seconds: "7" } });
    expect(parseCheckError("status 503, expected 2xx or 301")).toEqual({ code: "STATUS", params: { status: "503", expected: "2xx or 301" } });
    expect(parseCheckError("TLS error: wrong version number")).toEqual({ code: "TLS_OTHER", params: { detail: "wrong version number" } });
    expect(parseCheckError("something odd happened")).toEqual({ code: "OTHER", params: { detail: "something odd happened" } });
    for (const [code, text] of Object.entries(CHECK_ERROR_TEXT)) expect(parseCheckError(text)).toEqual({ code: code as never, params: {} });
    for (const code of ["ECONNREFUSED", "ENOTFOUND", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "CERT_HAS_EXPIRED", "EPROTO"]) {
      expect(parseCheckError(describeError({ code }, 7)).code).not.toBe("OTHER");
    }
  });
});

describe("TLS", () => {
  const cert = selfSignedCert(30);

  test.skipIf(!cert)("a self-signed certificate is a TLS error; its expiry is still read", async () => {
    const tls = startTarget(cert!);
    try {
      const r = await runCheck({ url: tls.url("/ok"), method: "GET", timeout: 5, expectedStatus: "2xx", headers: [], body: null, followRedirects: true });
      expect(r).toMatchObject({ up: false, error: "TLS error: self-signed certificate" });
      const expiry = await certificateExpiry("127.0.0.1", tls.port, 5000);
      expect(expiry).not.toBeNull();
      // openssl's -days 30: within a day of 30 days from now.
      expect(Math.abs(expiry! - (Date.now() + 30 * 86_400_000))).toBeLessThan(86_400_000 + 60_000);
    } finally {
      tls.stop();
    }
  });

  test.skipIf(!cert)("ignore TLS errors: the self-signed target is up", async () => {
    const tls = startTarget(cert!);
    try {
      const r = await runCheck({ url: tls.url("/ok"), method: "GET", timeout: 5, expectedStatus: "2xx", headers: [], body: null, followRedirects: true, ignoreTls: true });
      expect(r).toMatchObject({ up: true, httpStatus: 200 });
    } finally {
      tls.stop();
    }
  });

  // A node server that counts what a check opens: TCP connections and, over TLS, completed handshakes.
  async function countingServer(tlsCert?: { cert: string; key: string }) {
    const answer = (_req: unknown, res: { end: (body: string) => void }) => res.end("ok");
    const server: HttpServer = tlsCert ? createHttpsServer(tlsCert, answer) : createHttpServer(answer);
    const counts = { connections: 0, handshakes: 0 };
    server.on("connection", () => counts.connections++);
    server.on("secureConnection", () => counts.handshakes++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      counts,
      url: `${tlsCert ? "https" : "http"}://127.0.0.1:${port}/`,
      stop: () => {
        server.closeAllConnections();
        server.close();
      },
    };
  }

  /** Two checks of one monitor in a row; what the server saw. */
  async function twoChecks(freshConnection: boolean, tlsCert?: { cert: string; key: string }) {
    const server = await countingServer(tlsCert);
    try {
      for (let i = 0; i < 2; i++) {
        const r = await runCheck({
          url: server.url, method: "GET", timeout: 5, expectedStatus: "2xx", headers: [], body: null, followRedirects: true,
          ignoreTls: Boolean(tlsCert), freshConnection,
        });
        expect(r).toMatchObject({ up: true, httpStatus: 200 });
      }
      return { ...server.counts };
    } finally {
      server.stop();
    }
  }

  test("fresh connection off: two checks reuse one kept-alive connection; on: each check opens its own", async () => {
    expect(await twoChecks(false)).toMatchObject({ connections: 1 });
    expect(await twoChecks(true)).toMatchObject({ connections: 2 });
  });

  test.skipIf(!cert)("fresh connection over https: one TLS handshake for two checks when off, one per check when on", async () => {
    expect(await twoChecks(false, cert!)).toEqual({ connections: 1, handshakes: 1 });
    expect(await twoChecks(true, cert!)).toEqual({ connections: 2, handshakes: 2 });
  });

  test("a certificate expiring within the monitor's days is down; further away, or off, is not", () => {
    const now = Date.UTC(2026, 10, 1);
    const in10Days = now + 10 * 86_400_000 + 3_600_000;
    expect(tlsExpiryError({ url: "https://a.test/", tlsExpiryDays: 14 }, in10Days, now)).toBe("TLS certificate expires in 10 days");
    expect(tlsExpiryError({ url: "https://a.test/", tlsExpiryDays: 7 }, in10Days, now)).toBeNull();
    expect(tlsExpiryError({ url: "https://a.test/", tlsExpiryDays: null }, in10Days, now)).toBeNull();
    expect(tlsExpiryError({ url: "https://a.test/", tlsExpiryDays: 7 }, null, now)).toBeNull();
    expect(tlsExpiryError({ url: "http://a.test/", tlsExpiryDays: 7 }, in10Days, now)).toBeNull();
    expect(tlsExpiryError({ url: "https://a.test/", tlsExpiryDays: 7 }, now - 2 * 86_400_000, now)).toBe("TLS error: certificate has expired");
  });

  test("nothing listening: no expiry", async () => {
    expect(await certificateExpiry("127.0.0.1", closedPort(), 2000)).toBeNull();
  });

  test("the probe caches per host for its TTL and looks up in the background", async () => {
    let now = 1_000_000;
    const lookups: string[] = [];
    const probe = createTlsProbe({
      now: () => now,
      ttlMs: 1000,
      lookup: async (host, port) => {
        lookups.push(`${host}:${port}`);
        return 42;
      },
    });
    const found: (number | null)[] = [];
    expect(probe.get("https://example.test/a", (e) => found.push(e))).toBeUndefined();
    expect(probe.get("http://example.test/a", () => {})).toBeUndefined();
    await Bun.sleep(0);
    expect(found).toEqual([42]);
    expect(probe.get("https://example.test:443/other", () => found.push(-1))).toBe(42);
    expect(lookups).toEqual(["example.test:443"]);
    now += 2000;
    probe.get("https://example.test/", () => {});
    await Bun.sleep(0);
    expect(lookups).toHaveLength(2);
  });
});

describe("assertions against a local target", () => {
  const body = (text: string) => `/body?text=${encodeURIComponent(text)}`;
  const json = (doc: unknown) => `/json?doc=${encodeURIComponent(JSON.stringify(doc))}`;

  test("keyword contained: true, false (the page said error), and case", async () => {
    expect(await check(body("<h1>All systems operational</h1>"), { keyword: "operational" })).toMatchObject({ up: true, error: null });
    expect(await check(body("<h1>Database error</h1>"), { keyword: "operational" })).toMatchObject({ up: false, httpStatus: 200, error: 'keyword "operational" not found' });
    expect(await check(body("OPERATIONAL"), { keyword: "operational" })).toMatchObject({ up: true });
    expect(await check(body("OPERATIONAL"), { keyword: "operational", keywordCaseSensitive: true })).toMatchObject({ up: false });
  });

  test("keyword absent (inverted): true and false", async () => {
    expect(await check(body("fine"), { keyword: "Error", keywordInvert: true })).toMatchObject({ up: true });
    expect(await check(body("Fatal error: out of memory"), { keyword: "Error", keywordInvert: true })).toMatchObject({ up: false, error: 'keyword "Error" found' });
  });

  test("a keyword beyond 64 KB is still found (assertions read up to 1 MB)", async () => {
    expect(await check("/body?pad=200000&text=needle", { keyword: "needle" })).toMatchObject({ up: true });
  });

  test("JSON path: true, false with what was found, missing, and a body that is not JSON", async () => {
    const doc = { status: "ok", queue: { length: 3 }, items: [1, 2, 3] };
    expect(await check(json(doc), { jsonPath: '$.status == "ok"' })).toMatchObject({ up: true });
    expect(await check(json({ status: "degraded" }), { jsonPath: '$.status == "ok"' })).toMatchObject({
      up: false,
      error: 'JSON $.status == "ok" is false (got "degraded")',
    });
    expect(await check(json(doc), { jsonPath: "$.items.length < 100" })).toMatchObject({ up: true });
    expect(await check(json({ items: new Array(150).fill(0) }), { jsonPath: "$.items.length < 100" })).toMatchObject({ up: false, error: "JSON $.items.length < 100 is false (got 150)" });
    expect(await check(json({}), { jsonPath: '$.status == "ok"' })).toMatchObject({ up: false, error: "JSON $.status not found" });
    expect(await check(body("<html>not json</html>"), { jsonPath: "$.ok" })).toMatchObject({ up: false, error: "body is not JSON" });
  });

  test("slow answers: above the limit is down with both numbers; below is up", async () => {
    const slow = await check("/slow/300", { maxResponseTime: 100 });
    expect(slow.up).toBe(false);
    expect(slow.error).toMatch(/^too slow: \d{3} ms > 100 ms$/);
    expect(parseCheckError(slow.error!).code).toBe("TOO_SLOW");
    expect(await check("/ok", { maxResponseTime: 5000 })).toMatchObject({ up: true });
  });

  test("the status decides first: a 500 with the keyword is still a status failure", async () => {
    expect(await check("/status/500", { keyword: "status" })).toMatchObject({ up: false, error: "status 500, expected 2xx" });
  });

  test("sentences group thousands with a space and read back as codes", () => {
    expect(parseCheckError("too slow: 2 340 ms > 1 000 ms")).toEqual({ code: "TOO_SLOW", params: { ms: "2 340", max: "1 000" } });
    expect(parseCheckError('keyword "a b" not found')).toEqual({ code: "KEYWORD_MISSING", params: { keyword: '"a b"' } });
    expect(parseCheckError("TLS certificate expires in 5 days")).toEqual({ code: "TLS_EXPIRES_SOON", params: { days: "5" } });
  });
});
