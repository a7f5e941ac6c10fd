// Addresses written in other spellings (one number, hex, octal, fewer parts, IPv4-mapped IPv6) through the API
// (both engines): ping and tcp hosts are refused on save like the same address in a URL, names are still saved, and
// an address that is allowed is stored, checked and reached as the address it stands for.
import { afterAll, describe, expect, test } from "bun:test";
import { createServer } from "node:net";
import { createServices } from "../../app";
import { testDb } from "../../db/test-db";
import type { TargetPolicy } from "../../net/targets";
import { testApp } from "../../test-support";
import type { CheckResult, PublicMonitor } from "../public";

const tcp = createServer((s) => s.destroy());
await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
const tcpPort = (tcp.address() as { port: number }).port;
afterAll(() => tcp.close());

async function signedIn(targets?: TargetPolicy) {
  const db = await testDb();
  const t = await testApp({ db, services: await createServices(db, { targets }) });
  const { token } = await t.signUp("alice");
  const create = (body: Record<string, unknown>) => t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { name: "m", ...body } });
  const update = (id: number, body: Record<string, unknown>) => t.call<{ monitor: PublicMonitor }>("PUT", `/api/monitors/${id}`, { token, body });
  return { ...t, token, create, update };
}

const kinds = [
  ["ping", {}],
  ["tcp", { port: 80 }],
] as const;

describe("the metadata address in other spellings", () => {
  test.each(kinds)("%s: refused on save with the URL's message, whatever the instance allows", async (type, extra) => {
    const t = await signedIn();
    const url = await t.create({ url: "http://169.254.169.254/" });
    expect(url.status).toBe(400);
    for (const host of ["0xa9fea9fe", "2852039166", "0251.0376.0251.0376", "169.254.43518", "[::ffff:169.254.169.254]", "0xA9FEA9FE."]) {
      const res = await t.create({ type, host, ...extra });
      expect({ host, status: res.status, success: res.body.success, code: res.body.code }).toEqual({ host, status: 400, success: false, code: "TARGET_FORBIDDEN" });
      expect(res.body.message).toBe(url.body.message);
    }
  });
});

describe("--block-private-targets", () => {
  const block = { allowPrivate: false };

  test.each(kinds)("%s: loopback in other spellings is refused on create and on edit", async (type, extra) => {
    const t = await signedIn(block);
    const named = await t.create({ type, host: "db1", ...extra });
    expect(named.status).toBe(201);
    for (const host of ["2130706433", "127.1", "0x7f.1", "[::ffff:127.0.0.1]", "017700000001", "0"]) {
      const created = await t.create({ type, host, ...extra });
      expect({ host, status: created.status, code: created.body.code }).toEqual({ host, status: 400, code: "TARGET_FORBIDDEN" });
      expect(created.body.message).toMatch(/is a private or local address, which this instance does not allow as a target/);
      const edited = await t.update(named.body.monitor.id, { host });
      expect({ host, status: edited.status, code: edited.body.code }).toEqual({ host, status: 400, code: "TARGET_FORBIDDEN" });
    }
    const kept = await t.call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${named.body.monitor.id}`, { token: t.token });
    expect(kept.body.monitor.host).toBe("db1");
  });

  test.each(kinds)("%s: host names are still saved as written", async (type, extra) => {
    const t = await signedIn(block);
    for (const host of ["db1", "example.com", "1e100.net", "cafe.dead", "deadbeef", "_srv.example.com"]) {
      const res = await t.create({ type, host, ...extra });
      expect({ host, status: res.status, saved: res.body.monitor?.host }).toEqual({ host, status: 201, saved: host });
    }
  });
});

describe("an allowed address in another spelling", () => {
  test("is saved as the address it stands for, and the check connects there", async () => {
    const t = await signedIn();
    const m = await t.create({ type: "tcp", host: "0x7f.1", port: tcpPort });
    expect(m.status).toBe(201);
    expect(m.body.monitor).toMatchObject({ host: "127.0.0.1", target: `127.0.0.1:${tcpPort}` });
    const checked = await t.call<{ result: CheckResult }>("POST", `/api/monitors/${m.body.monitor.id}/check`, { token: t.token });
    expect(checked.body.result.status).toBe("up");
    const pub = await t.create({ type: "ping", host: "16843009" });
    expect(pub.body.monitor.host).toBe("1.1.1.1");
  });
});
