// Every check type through the API against real local targets: an HTTP server with bodies, a TCP listener, a DNS
// responder; and each type's bad input.
import { afterAll, describe, expect, test } from "bun:test";
import { createServer } from "node:net";
import { testApp } from "../../test-support";
import type { CheckResult, PublicMonitor } from "../public";
import { closedPort, startTarget } from "../test-target";
import { startDnsResponder } from "./dns/responder";

const http = startTarget();
const tcp = createServer((s) => s.destroy());
await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
const tcpPort = (tcp.address() as { port: number }).port;
const dns = await startDnsResponder({ "app.test": { A: ["10.1.2.3", "10.1.2.4"], MX: ["10 mail.app.test"], TXT: ["v=spf1 -all"] } });
afterAll(() => {
  http.stop();
  tcp.close();
  dns.stop();
});

const resolver = `127.0.0.1:${dns.port}`;

async function signedIn() {
  const t = await testApp();
  const { token } = await t.signUp("alice");
  const create = (body: Record<string, unknown>) => t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { name: "m", ...body } });
  const check = async (id: number) => (await t.call<{ result: CheckResult; monitor: PublicMonitor }>("POST", `/api/monitors/${id}/check`, { token })).body;
  return { ...t, token, create, check };
}

describe("each type against its real target", () => {
  test("http with a keyword: up when the page says it, down when it does not", async () => {
    const t = await signedIn();
    const ok = await t.create({ url: http.url(`/body?text=${encodeURIComponent("all systems operational")}`), keyword: "Operational" });
    expect(ok.status).toBe(201);
    expect(ok.body.monitor).toMatchObject({ type: "http", keyword: "Operational", keywordCaseSensitive: false, target: ok.body.monitor.url });
    expect((await t.check(ok.body.monitor.id)).result).toMatchObject({ status: "up", httpStatus: 200 });
    const bad = await t.create({ url: http.url("/body?text=maintenance"), keyword: "operational" });
    expect((await t.check(bad.body.monitor.id)).result).toMatchObject({ status: "down", error: 'keyword "operational" not found' });
    const json = await t.create({ url: http.url(`/json?doc=${encodeURIComponent('{"queue":[1,2]}')}`), jsonPath: "  $.queue.length < 100 " });
    expect(json.body.monitor.jsonPath).toBe("$.queue.length < 100");
    expect((await t.check(json.body.monitor.id)).result.status).toBe("up");
  });

  test("tcp: an open port is up with a connect time, a closed one down; the target reads host:port", async () => {
    const t = await signedIn();
    const open = await t.create({ type: "tcp", host: "127.0.0.1", port: tcpPort });
    expect(open.body.monitor).toMatchObject({ type: "tcp", target: `127.0.0.1:${tcpPort}`, url: "" });
    const up = await t.check(open.body.monitor.id);
    expect(up.result.status).toBe("up");
    expect(up.result.responseTime).toBeNumber();
    const closed = await t.create({ type: "tcp", host: "127.0.0.1", port: closedPort() });
    expect((await t.check(closed.body.monitor.id)).result).toMatchObject({ status: "down", error: "connection refused" });
  });

  test("dns: answers from the local responder; the expected value decides; a missing name is down", async () => {
    const t = await signedIn();
    const a = await t.create({ type: "dns", host: "APP.test.", dnsResolver: resolver, dnsExpected: "10.1.2.4" });
    expect(a.body.monitor).toMatchObject({ type: "dns", host: "app.test", dnsRecordType: "A", target: "app.test A", dnsResolver: resolver });
    expect((await t.check(a.body.monitor.id)).result.status).toBe("up");
    const mx = await t.create({ type: "dns", host: "app.test", dnsRecordType: "MX", dnsResolver: resolver, dnsExpected: "mail.app.test" });
    expect((await t.check(mx.body.monitor.id)).result.status).toBe("up");
    const wrong = await t.create({ type: "dns", host: "app.test", dnsResolver: resolver, dnsExpected: "10.9.9.9" });
    expect((await t.check(wrong.body.monitor.id)).result).toMatchObject({ status: "down", error: "DNS: expected 10.9.9.9, got 10.1.2.3, 10.1.2.4" });
    const missing = await t.create({ type: "dns", host: "gone.test", dnsResolver: resolver });
    expect((await t.check(missing.body.monitor.id)).result).toMatchObject({ status: "down", error: "DNS: gone.test does not exist" });
    const empty = await t.create({ type: "dns", host: "app.test", dnsRecordType: "AAAA", dnsResolver: resolver });
    expect((await t.check(empty.body.monitor.id)).result).toMatchObject({ status: "down", error: "DNS: no AAAA records for app.test" });
  });

  test("tags are trimmed and merged whatever their case; the list carries type, target, tags and a 24-hour heartbeat", async () => {
    const t = await signedIn();
    const m = await t.create({ type: "tcp", host: "127.0.0.1", port: tcpPort, tags: [" prod ", "PROD", "db", ""] });
    expect(m.body.monitor.tags).toEqual(["prod", "db"]);
    await t.check(m.body.monitor.id);
    const list = await t.call<{ monitors: PublicMonitor[] }>("GET", "/api/monitors", { token: t.token });
    const row = list.body.monitors.find((x) => x.id === m.body.monitor.id)!;
    expect(row).toMatchObject({ type: "tcp", tags: ["prod", "db"], target: `127.0.0.1:${tcpPort}` });
    expect(row.heartbeat).toHaveLength(24);
    expect(row.heartbeat.at(-1)).toEqual([1, 1]);
    expect(row.heartbeat.slice(0, 23).every(([checks]) => checks === 0)).toBe(true);
  });

  test("changing the type keeps the new type's settings only; the check follows the new type", async () => {
    const t = await signedIn();
    const m = await t.create({ url: http.url("/ok") });
    const moved = await t.call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${m.body.monitor.id}`, { token: t.token, body: { type: "tcp", host: "127.0.0.1", port: tcpPort } });
    // A monitor stores its own type's settings object: the http fields read as their defaults now.
    expect(moved.body.monitor).toMatchObject({ type: "tcp", url: "", method: "GET", host: "127.0.0.1", target: `127.0.0.1:${tcpPort}` });
    expect((await t.check(m.body.monitor.id)).result).toMatchObject({ status: "up", httpStatus: null });
  });
});

describe("bad input per type", () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["an unknown type", { type: "icmp", url: "http://a.test/" }, "VALIDATION", /Type must be one of http, tcp, dns, push, ping/],
    ["http without a URL", { type: "http" }, "INVALID_URL", /URL is required/],
    ["a JSON path that does not parse", { url: "http://a.test/", jsonPath: "status == ok" }, "INVALID_JSON_PATH", /\$/],
    ["a slow-answer limit at the timeout", { url: "http://a.test/", timeout: 5, maxResponseTime: 5000 }, "MAX_RESPONSE_TIME_TOO_LONG", /below the timeout/],
    ["a slow-answer limit of 0", { url: "http://a.test/", maxResponseTime: 0 }, "VALIDATION", /slow-answer limit/],
    ["TLS expiry days of 0", { url: "https://a.test/", tlsExpiryDays: 0 }, "VALIDATION", /TLS expiry/],
    ["a 501-character keyword", { url: "http://a.test/", keyword: "k".repeat(501) }, "VALIDATION", /keyword/],
    ["tcp without a host", { type: "tcp", port: 22 }, "INVALID_HOST", /host name or an IP address/],
    ["tcp with a URL for host", { type: "tcp", host: "https://db.test", port: 22 }, "INVALID_HOST", /without scheme/],
    ["tcp without a port", { type: "tcp", host: "db.test" }, "PORT_REQUIRED", /Port is required/],
    ["tcp with port 70000", { type: "tcp", host: "db.test", port: 70000 }, "VALIDATION", /Port must be a whole number from 1 to 65535/],
    ["tcp to the metadata service", { type: "tcp", host: "169.254.169.254", port: 80 }, "TARGET_FORBIDDEN", /metadata|link-local/],
    ["dns without a name", { type: "dns" }, "INVALID_HOST", /host name/],
    ["dns with an unknown record type", { type: "dns", host: "a.test", dnsRecordType: "SRV" }, "VALIDATION", /Record type must be one of/],
    ["dns with a resolver that is not an address", { type: "dns", host: "a.test", dnsResolver: "dns.google" }, "INVALID_RESOLVER", /Resolver must be an IP address/],
    ["dns with a resolver port of 0", { type: "dns", host: "a.test", dnsResolver: "1.1.1.1:0" }, "INVALID_RESOLVER", /Resolver/],
    ["dns with a link-local resolver", { type: "dns", host: "a.test", dnsResolver: "169.254.169.254" }, "TARGET_FORBIDDEN", /./],
    ["push with a negative grace", { type: "push", pushGrace: -1 }, "VALIDATION", /Grace must be a whole number of seconds from 0 to 3600/],
    ["eleven tags", { url: "http://a.test/", tags: "abcdefghijk".split("") }, "VALIDATION", /At most 10 tags/],
    ["a 33-character tag", { url: "http://a.test/", tags: ["t".repeat(33)] }, "VALIDATION", /each 1-32 characters/],
  ];
  test.each(cases)("%s is refused with a clear error", async (_what, body, code, message) => {
    const t = await signedIn();
    const res = await t.create(body);
    expect({ status: res.status, success: res.body.success, code: res.body.code }).toEqual({ status: 400, success: false, code });
    expect(res.body.message).toMatch(message);
  });

  test("an edit is checked against the monitor's type too (PUT)", async () => {
    const t = await signedIn();
    const m = await t.create({ type: "tcp", host: "127.0.0.1", port: tcpPort });
    const res = await t.call("PUT", `/api/monitors/${m.body.monitor.id}`, { token: t.token, body: { port: null } });
    expect(res.body).toMatchObject({ success: false, code: "PORT_REQUIRED" });
    const got = await t.call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${m.body.monitor.id}`, { token: t.token });
    expect(got.body.monitor.port).toBe(tcpPort);
  });
});
