import { afterAll, describe, expect, test } from "bun:test";
import { createChecker, runCheck, type CheckTarget } from "../monitors/types/http/http";
import { createServices } from "../app";
import { testDb } from "../db/test-db";
import { createNotificationStore } from "../notifications/store";
import { testApp } from "../test-support";
import { addressProblem, ALLOW_PRIVATE, createTargetGuard, guardedFetch, hostProblem, literalHostProblem, literalProblem, targetProblem, TargetRefused, type Resolve, type TargetPolicy } from "./targets";

const BLOCK: { allowPrivate: boolean } = { allowPrivate: false };

// A public-looking name that resolves wherever the test says, and a redirector to any address.
const redirector = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const to = new URL(req.url).searchParams.get("to");
    return to ? new Response(null, { status: 302, headers: { location: to } }) : new Response("ok");
  },
});
afterAll(() => redirector.stop(true));
const local = (path: string) => `http://127.0.0.1:${redirector.port}${path}`;
const target = (url: string, over: Partial<CheckTarget> = {}): CheckTarget => ({
  url,
  method: "GET",
  timeout: 5,
  expectedStatus: "2xx",
  headers: [],
  body: null,
  followRedirects: true,
  ...over,
});

describe("addresses", () => {
  test.each([
    ["169.254.169.254", true, true],
    ["169.254.0.1", true, true],
    ["fe80::1", true, true],
    ["fd00:ec2::254", true, true],
    ["::ffff:169.254.169.254", true, true],
    ["127.0.0.1", false, true],
    ["10.1.2.3", false, true],
    ["172.20.0.1", false, true],
    ["192.168.1.1", false, true],
    ["100.64.0.1", false, true],
    ["0.0.0.0", false, true],
    ["::1", false, true],
    ["fd12:3456::1", false, true],
    ["::ffff:10.0.0.1", false, true],
    ["8.8.8.8", false, false],
    ["2606:4700::1111", false, false],
  ])("%s: refused always %p, refused when private targets are blocked %p", (address, always, blocked) => {
    expect(addressProblem(address, ALLOW_PRIVATE) !== null).toBe(always);
    expect(addressProblem(address, BLOCK) !== null).toBe(blocked);
  });

  test("URLs as written: numeric and bracketed forms of the metadata address, metadata names, localhost", () => {
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://0xa9fea9fe/", "http://2852039166/", "http://[::ffff:169.254.169.254]/", "http://[fd00:ec2::254]/", "http://metadata.google.internal/computeMetadata/v1/"]) {
      expect(literalHostProblem(url, ALLOW_PRIVATE)).not.toBeNull();
    }
    expect(literalHostProblem("http://127.0.0.1:8080/", ALLOW_PRIVATE)).toBeNull();
    expect(literalHostProblem("http://localhost:8080/", BLOCK)).toMatch(/local address/);
    expect(literalHostProblem("https://example.com/", BLOCK)).toBeNull();
  });

  test("hosts as written: an address in any spelling is judged as that address, without asking DNS; names are not", async () => {
    const asked: string[] = [];
    const resolve: Resolve = async (name) => (asked.push(name), ["93.184.216.34"]);
    const metadata = addressProblem("169.254.169.254", ALLOW_PRIVATE);
    for (const host of ["0xa9fea9fe", "2852039166", "169.254.43518", "[::ffff:169.254.169.254]", "::ffff:a9fe:a9fe"]) {
      expect(literalProblem(host, ALLOW_PRIVATE)).toBe(metadata);
      expect(await hostProblem(host, ALLOW_PRIVATE, resolve)).toBe(metadata);
    }
    for (const host of ["2130706433", "127.1", "0x7f.1", "[::ffff:127.0.0.1]"]) {
      expect(literalProblem(host, ALLOW_PRIVATE)).toBeNull();
      expect(await hostProblem(host, BLOCK, resolve)).toBe(addressProblem("127.0.0.1", BLOCK));
    }
    expect(asked).toEqual([]);
    for (const host of ["db1", "example.com", "1e100.net"]) expect(await hostProblem(host, BLOCK, resolve)).toBeNull();
    expect(asked).toEqual(["db1", "example.com", "1e100.net"]);
  });

  test("a name is judged by every address it resolves to; one that does not resolve is left to the request", async () => {
    const resolve: Resolve = async (name) => {
      if (name === "rebind.example") return ["93.184.216.34", "169.254.169.254"];
      if (name === "intranet.example") return ["10.0.0.5"];
      throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    };
    expect(await targetProblem("http://rebind.example/", ALLOW_PRIVATE, resolve)).toMatch(/^rebind\.example resolves to 169\.254\.169\.254 is a link-local/);
    expect(await targetProblem("http://intranet.example/", ALLOW_PRIVATE, resolve)).toBeNull();
    expect(await targetProblem("http://intranet.example/", BLOCK, resolve)).toMatch(/private or local/);
    expect(await targetProblem("http://nowhere.example/", BLOCK, resolve)).toBeNull();
  });

  test("a guarded fetch refuses before connecting", async () => {
    let calls = 0;
    const inner = (async () => {
      calls++;
      return new Response("ok");
    }) as unknown as typeof fetch;
    const guarded = guardedFetch(BLOCK, inner);
    await expect(guarded("http://127.0.0.1:9/")).rejects.toBeInstanceOf(TargetRefused);
    expect(calls).toBe(0);
    expect((await guardedFetch(ALLOW_PRIVATE, inner)("http://127.0.0.1:9/")).status).toBe(200);
    expect(calls).toBe(1);
  });
});

describe("checks", () => {
  test("a redirect to the metadata address is refused without contacting it", async () => {
    const outcome = await runCheck(target(local("/?to=http://169.254.169.254/latest/meta-data/")));
    expect(outcome).toMatchObject({ up: false, httpStatus: null, error: "Target refused: 169.254.169.254 is a link-local (cloud metadata) address, which Vigil never contacts" });
    // Redirects still work where they may go.
    expect(await runCheck(target(local("/?to=/")))).toMatchObject({ up: true, httpStatus: 200 });
  });

  test("with private targets blocked, a local monitor is down with the reason, and a redirect into the network too", async () => {
    const check = createChecker({ policy: BLOCK, resolve: async () => ["93.184.216.34"] });
    expect((await check(target(local("/")))).error).toMatch(/^Target refused: 127\.0\.0\.1 is a private or local address/);
  });

  test("a 303 turns a POST into a GET without its body; too many hops is an error", async () => {
    let seen = "";
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const url = new URL(req.url);
        if (url.pathname === "/post") return new Response(null, { status: 303, headers: { location: "/landing" } });
        if (url.pathname === "/loop") return new Response(null, { status: 307, headers: { location: "/loop" } });
        seen = `${req.method} ${await req.text()}`;
        return new Response("ok");
      },
    });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      expect(await runCheck(target(`${base}/post`, { method: "POST", body: "x=1" }))).toMatchObject({ up: true });
      expect(seen).toBe("GET ");
      expect((await runCheck(target(`${base}/loop`))).error).toBe("too many redirects");
    } finally {
      server.stop(true);
    }
  });
});

describe("the API", () => {
  test("a monitor on the metadata address is refused; private addresses are fine by default", async () => {
    const t = await testApp();
    const { token } = await t.signUp("alice");
    const bad = await t.call("POST", "/api/monitors", { token, body: { name: "meta", url: "http://169.254.169.254/latest/meta-data/" } });
    expect([bad.status, bad.body.code]).toEqual([400, "TARGET_FORBIDDEN"]);
    expect(bad.body.message).toMatch(/link-local/);
    const ok = await t.call("POST", "/api/monitors", { token, body: { name: "router", url: "http://192.168.1.1/" } });
    expect(ok.status).toBe(201);
    const edit = await t.call("PUT", `/api/monitors/${(ok.body.monitor as { id: number }).id}`, { token, body: { url: "http://[fd00:ec2::254]/" } });
    expect([edit.status, edit.body.code]).toEqual([400, "TARGET_FORBIDDEN"]);
  });

  test("an instance that blocks private targets refuses them for monitors, webhooks on save, and webhook deliveries", async () => {
    const db = await testDb();
    const services = await createServices(db, { targets: BLOCK });
    const t = await testApp({ db, services });
    const { token } = await t.signUp("alice");
    const bad = await t.call("POST", "/api/monitors", { token, body: { name: "router", url: "http://10.0.0.1/" } });
    expect([bad.status, bad.body.code]).toEqual([400, "TARGET_FORBIDDEN"]);
    expect((await t.call("POST", "/api/monitors", { token, body: { name: "public", url: "https://example.com/" } })).status).toBe(201);

    const channel = await t.call("POST", "/api/notifications/channels", { token, body: { name: "hook", type: "webhook", config: { url: local("/") } } });
    expect([channel.status, channel.body.code]).toEqual([400, "TARGET_FORBIDDEN"]);
    // One saved before the instance blocked private targets is refused when it sends.
    const saved = await createNotificationStore(db).createChannel({ name: "hook", type: "webhook", config: { url: local("/") } });
    const sent = await t.call("POST", `/api/notifications/channels/${saved.id}/test`, { token });
    expect(sent.body.success).toBe(false);
    expect(String(sent.body.message)).toMatch(/127\.0\.0\.1 is a private or local address/);
  });
});

describe("target guard (a checker's per-URL policy)", () => {
  const noPrivate: TargetPolicy = { ...ALLOW_PRIVATE, allowPrivate: false };

  test("an IP host's verdict is known without a lookup; a name is resolved on every check", async () => {
    let lookups = 0;
    let answer = ["93.184.216.34"];
    const guard = createTargetGuard(noPrivate, async () => (lookups++, answer));
    expect(guard("http://10.0.0.1/x")).toContain("10.0.0.1");
    expect(guard("http://93.184.216.34/x")).toBeNull();
    expect(guard("http://169.254.169.254/latest")).toContain("169.254.169.254");
    expect(lookups).toBe(0);

    expect(guard("http://example.test/x")).toBeInstanceOf(Promise);
    expect(await guard("http://example.test/x")).toBeNull();
    // The name now points at a private address: the next check sees it.
    answer = ["192.168.1.5"];
    expect(await guard("http://example.test/x")).toContain("192.168.1.5");
    expect(lookups).toBe(3);
  });

  test("private addresses pass when the instance allows them", () => {
    expect(createTargetGuard(ALLOW_PRIVATE, async () => [])("http://127.0.0.1:8080/")).toBeNull();
  });
});
