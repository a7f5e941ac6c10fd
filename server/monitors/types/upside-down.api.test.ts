// Upside down through the API (both engines), for every type against real local targets (ping: a fake pinger): a
// check that passes is recorded down with "up, but this monitor is upside down" and its response time; one that fails
// is recorded up. Push: a call saying up counts as down, one saying down as up; silence stays down.
import { afterAll, describe, expect, test } from "bun:test";
import { createServer } from "node:net";
import { createServices } from "../../app";
import { testDb } from "../../db/test-db";
import { testApp } from "../../test-support";
import type { CheckResult, PublicMonitor } from "../public";
import { closedPort, startTarget } from "../test-target";
import { startDnsResponder } from "./dns/responder";
import type { Pinger } from "./ping/pinger";

const http = startTarget();
const tcp = createServer((s) => s.destroy());
await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
const tcpPort = (tcp.address() as { port: number }).port;
const dns = await startDnsResponder({ "app.test": { A: ["10.1.2.3"] } });
afterAll(() => {
  http.stop();
  tcp.close();
  dns.stop();
});

const PASSED = "up, but this monitor is upside down";
// Replies to every packet, except to 127.0.0.2 (lost).
const pinger: Pinger = { method: "socket", ping: async (address, _family, count) => ({ sent: count, rtts: Array(count).fill(address === "127.0.0.2" ? null : 1.5) }) };

async function signedIn() {
  const db = await testDb();
  const t = await testApp({ db, services: await createServices(db, { monitors: { pinger: () => pinger } }) });
  const { token } = await t.signUp("alice");
  const create = (body: Record<string, unknown>) => t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { name: "m", upsideDown: true, ...body } });
  const check = async (id: number) => (await t.call<{ result: CheckResult; monitor: PublicMonitor }>("POST", `/api/monitors/${id}/check`, { token })).body;
  return { ...t, token, create, check };
}

describe("upside down", () => {
  test("round trip: off by default, set on create and update, refused when not a boolean", async () => {
    const t = await signedIn();
    const plain = await t.create({ url: http.url("/ok"), upsideDown: undefined });
    expect(plain.body.monitor.upsideDown).toBe(false);
    const on = await t.call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${plain.body.monitor.id}`, { token: t.token, body: { upsideDown: true } });
    expect(on.body.monitor.upsideDown).toBe(true);
    expect((await t.call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${plain.body.monitor.id}`, { token: t.token })).body.monitor.upsideDown).toBe(true);
    const bad = await t.create({ url: http.url("/ok"), upsideDown: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: "VALIDATION" });
    expect(bad.body.message).toStartWith("upsideDown must be true or false");
  });

  test("http: a 200 is down with its response time and status, a 500 is up", async () => {
    const t = await signedIn();
    const ok = await t.create({ url: http.url("/ok"), retries: 0 });
    const passed = await t.check(ok.body.monitor.id);
    expect(passed.result).toMatchObject({ status: "down", error: PASSED, httpStatus: 200 });
    expect(passed.result.responseTime).toBeNumber();
    expect(passed.monitor).toMatchObject({ status: "down", lastError: PASSED, upsideDown: true });
    const failing = await t.create({ url: http.url("/status/500") });
    expect((await t.check(failing.body.monitor.id)).result).toMatchObject({ status: "up", error: null, httpStatus: 500 });
  });

  test("tcp: an open port is down, a closed one up", async () => {
    const t = await signedIn();
    const open = await t.create({ type: "tcp", host: "127.0.0.1", port: tcpPort });
    expect((await t.check(open.body.monitor.id)).result).toMatchObject({ status: "down", error: PASSED });
    const closed = await t.create({ type: "tcp", host: "127.0.0.1", port: closedPort() });
    expect((await t.check(closed.body.monitor.id)).result).toMatchObject({ status: "up", error: null });
  });

  test("dns: an answer is down, a missing name up", async () => {
    const t = await signedIn();
    const resolver = `127.0.0.1:${dns.port}`;
    const found = await t.create({ type: "dns", host: "app.test", dnsResolver: resolver });
    expect((await t.check(found.body.monitor.id)).result).toMatchObject({ status: "down", error: PASSED });
    const missing = await t.create({ type: "dns", host: "gone.test", dnsResolver: resolver });
    expect((await t.check(missing.body.monitor.id)).result).toMatchObject({ status: "up", error: null });
  });

  test("ping: replies are down (the round trips kept), no reply is up", async () => {
    const t = await signedIn();
    const answering = await t.create({ type: "ping", host: "127.0.0.1" });
    const passed = await t.check(answering.body.monitor.id);
    expect(passed.result).toMatchObject({ status: "down", error: PASSED, ping: { sent: 3, received: 3 } });
    const silent = await t.create({ type: "ping", host: "127.0.0.2" });
    expect((await t.check(silent.body.monitor.id)).result).toMatchObject({ status: "up", error: null, ping: { received: 0 } });
  });

  test("push: status=up counts as down, status=down as up", async () => {
    const t = await signedIn();
    const m = (await t.create({ type: "push" })).body.monitor;
    const monitor = async () => (await t.call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${m.id}`, { token: t.token })).body.monitor;
    const up = await t.call("GET", `/api/push/${m.pushToken}?status=up&ping=12`);
    expect(up.body).toMatchObject({ success: true, message: "Push recorded: down" });
    expect(await monitor()).toMatchObject({ status: "down", lastError: PASSED, responseTime: 12 });
    await Bun.sleep(1_010); // one push a second
    const down = await t.call("GET", `/api/push/${m.pushToken}?status=down&msg=backup%20failed`);
    expect(down.body).toMatchObject({ success: true, message: "Push recorded: up" });
    expect(await monitor()).toMatchObject({ status: "up", lastError: null });
  });
});
