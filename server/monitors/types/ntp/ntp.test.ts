import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSocket, type Socket } from "node:dgram";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import type { HttpError } from "../../../http/http-error";
import { ALLOW_PRIVATE, defaultResolve, type TargetPolicy } from "../../../net/targets";
import type { SettingsCheckContext } from "../settings-type";
import { ntpType, readTimestamp, writeTimestamp } from "./ntp";
import { ntpSettings } from "./settings";

const CHRONYD = Bun.which("chronyd") ?? (Bun.file("/usr/sbin/chronyd").size ? "/usr/sbin/chronyd" : null);
const noServer = !CHRONYD && !process.env.CI;

const ctx = (timeoutMs = 3000, policy: TargetPolicy = ALLOW_PRIVATE): SettingsCheckContext => ({
  timeoutMs,
  signal: AbortSignal.timeout(timeoutMs),
  policy,
  resolve: defaultResolve,
  now: Date.now,
});
const settings = (port: number, over: Partial<Parameters<typeof ntpType.check>[0]> = {}) => ({
  host: "127.0.0.1",
  port,
  maxStratum: 4,
  maxOffsetMs: 1000,
  ...over,
});

/** A free UDP port on 127.0.0.1 (bound, then released). */
async function freeUdpPort(): Promise<number> {
  const s = createSocket("udp4");
  await new Promise<void>((r) => s.bind(0, "127.0.0.1", r));
  const port = s.address().port;
  await new Promise<void>((r) => s.close(r));
  return port;
}

/** A UDP server on 127.0.0.1 answering each packet with `answer(request)` (or nothing when it returns null). */
async function udpServer(answer: (req: Buffer) => Buffer | null) {
  const socket = createSocket("udp4");
  const seen: { address: string; port: number }[] = [];
  socket.on("message", (msg, from) => {
    seen.push(from);
    const reply = answer(msg);
    if (reply) socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((r) => socket.bind(0, "127.0.0.1", r));
  sockets.push(socket);
  return { port: socket.address().port, seen, socket };
}
const sockets: Socket[] = [];

/** Whether a datagram from 127.0.0.1:fromPort to 127.0.0.1:toPort is refused (nothing open there for that peer). */
async function portUnreachable(fromPort: number, toPort: number): Promise<string> {
  const probe = createSocket("udp4");
  await new Promise<void>((r) => probe.bind(fromPort, "127.0.0.1", r));
  const outcome = await new Promise<string>((resolve) => {
    probe.on("error", (e) => resolve((e as NodeJS.ErrnoException).code ?? e.message));
    probe.connect(toPort, "127.0.0.1", () => probe.send(Buffer.alloc(1)));
    setTimeout(() => resolve("no error"), 500);
  });
  probe.close();
  return outcome;
}

/** A server reply to `req`: stratum, leap and a server clock `shiftMs` ahead of ours. */
function fakeReply(req: Buffer, o: { stratum?: number; leap?: number; shiftMs?: number; refid?: string; origin?: Buffer } = {}): Buffer {
  const reply = Buffer.alloc(48);
  reply[0] = ((o.leap ?? 0) << 6) | (4 << 3) | 4;
  reply[1] = o.stratum ?? 2;
  reply.write((o.refid ?? "GPS").padEnd(4, "\0"), 12, "latin1");
  (o.origin ?? req.subarray(40, 48)).copy(reply, 24);
  const now = performance.timeOrigin + performance.now() + (o.shiftMs ?? 0);
  writeTimestamp(now, reply, 32);
  writeTimestamp(now, reply, 40);
  return reply;
}

let dir = "";
let chrony: ReturnType<typeof Bun.spawn> | null = null;
let chronyPort = 0;

beforeAll(async () => {
  if (!CHRONYD) return;
  dir = mkdtempSync(join(tmpdir(), "vigil-ntp-"));
  chronyPort = await freeUdpPort();
  // A real NTP server on 127.0.0.1 only: its own clock at stratum 5, never touching the system clock (-x), no command
  // sockets (cmdport 0, bindcmdaddress /) and its pid file here, so it collides with no other chronyd.
  writeFileSync(
    join(dir, "chrony.conf"),
    [`port ${chronyPort}`, "bindaddress 127.0.0.1", "allow 127.0.0.1", "local stratum 5", "cmdport 0", "bindcmdaddress /", `pidfile ${join(dir, "chronyd.pid")}`].join("\n"),
  );
  chrony = Bun.spawn([CHRONYD, "-x", "-d", "-f", join(dir, "chrony.conf")], { stdout: "ignore", stderr: "pipe" });
  for (let i = 0; i < 50; i++) {
    const r = await ntpType.check(settings(chronyPort, { maxStratum: 15 }), ctx(200));
    if (r.up) return;
    await Bun.sleep(100);
  }
  throw new Error(`chronyd did not answer: ${await new Response(chrony.stderr as ReadableStream).text()}`);
});

afterAll(async () => {
  sockets.forEach((s) => s.close());
  if (chrony) {
    chrony.kill();
    await chrony.exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(noServer)("ntp check against chronyd", () => {
  test("a synchronised server within the limits is up; response time is the round trip", async () => {
    const r = await ntpType.check(settings(chronyPort, { maxStratum: 5 }), ctx());
    expect(r).toEqual({ up: true, responseTime: expect.any(Number), error: null });
    expect(r.responseTime!).toBeGreaterThanOrEqual(0);
    expect(r.responseTime!).toBeLessThan(1000);
  });

  test("a stratum above the limit is down: stratum 5 > 4", async () => {
    expect(await ntpType.check(settings(chronyPort, { maxStratum: 4 }), ctx())).toEqual({ up: false, responseTime: expect.any(Number), error: "stratum 5 > 4" });
  });

  test("a host name resolving to the server works", async () => {
    const resolve = async (h: string) => (h === "time.test" ? ["127.0.0.1"] : []);
    const r = await ntpType.check(settings(chronyPort, { host: "time.test", maxStratum: 5 }), { ...ctx(), resolve });
    expect(r.up).toBe(true);
  });
});

describe("ntp check, failures", () => {
  test("nothing listening on the port: connection refused", async () => {
    const r = await ntpType.check(settings(await freeUdpPort()), ctx());
    expect(r).toEqual({ up: false, responseTime: null, error: "connection refused" });
  });

  test("a server that never answers: the timeout sentence within the timeout, and our socket closed", async () => {
    const silent = await udpServer(() => null);
    const started = performance.now();
    const r = await ntpType.check(settings(silent.port), ctx(300));
    const took = performance.now() - started;
    expect(r).toEqual({ up: false, responseTime: null, error: "timeout after 0.3 s" });
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(800);
    // The client's socket is closed: a datagram from the server's own address and port (the only peer the client's
    // connected socket would take) to the client's port comes back as "port unreachable".
    expect(silent.seen).toHaveLength(1);
    await new Promise<void>((r) => silent.socket.close(r));
    sockets.splice(sockets.indexOf(silent.socket), 1);
    const refused = await portUnreachable(silent.port, silent.seen[0]!.port);
    expect(refused).toBe("ECONNREFUSED");
  });

  test("a check stopped before it starts is cancelled", async () => {
    const silent = await udpServer(() => null);
    const controller = new AbortController();
    controller.abort();
    const r = await ntpType.check(settings(silent.port), { ...ctx(), signal: controller.signal });
    expect(r).toEqual({ up: false, responseTime: null, error: "check cancelled" });
  });

  test("the address policy refuses a private address before any packet is sent", async () => {
    const server = await udpServer((req) => fakeReply(req));
    const r = await ntpType.check(settings(server.port), ctx(1000, { allowPrivate: false }));
    expect(r.up).toBe(false);
    expect(r.error).toStartWith("Target refused: ");
    await Bun.sleep(50);
    expect(server.seen).toHaveLength(0);
  });
});

describe("ntp replies (a fake server)", () => {
  const ask = async (reply: (req: Buffer) => Buffer | null, over = {}, timeoutMs = 2000) =>
    ntpType.check(settings((await udpServer(reply)).port, over), ctx(timeoutMs));

  test("a good reply is up", async () => {
    expect(await ask((req) => fakeReply(req, { stratum: 2 }))).toMatchObject({ up: true, error: null });
  });
  test("a wrong stratum is down with its sentence", async () => {
    expect(await ask((req) => fakeReply(req, { stratum: 9 }))).toMatchObject({ up: false, error: "stratum 9 > 4" });
  });
  test("a clock 5 s ahead is down with the absolute offset", async () => {
    const r = await ask((req) => fakeReply(req, { shiftMs: 5000 }));
    expect(r.error).toMatch(/^clock offset (4 99\d|5 00\d) ms > 1 000 ms$/);
  });
  test("a clock 5 s behind reads the same", async () => {
    const r = await ask((req) => fakeReply(req, { shiftMs: -5000 }), { maxOffsetMs: 4000 });
    expect(r.error).toMatch(/^clock offset (4 99\d|5 00\d) ms > 4 000 ms$/);
  });
  test("kiss-o'-death: its code", async () => {
    expect((await ask((req) => fakeReply(req, { stratum: 0, refid: "RATE" }))).error).toBe("NTP error: kiss-o'-death RATE");
  });
  test("an unsynchronised server (leap 3, or stratum 16)", async () => {
    expect((await ask((req) => fakeReply(req, { leap: 3 }))).error).toBe("NTP error: server clock not synchronised");
    expect((await ask((req) => fakeReply(req, { stratum: 16 }))).error).toBe("NTP error: server clock not synchronised");
  });
  test("a short reply", async () => {
    expect((await ask(() => Buffer.alloc(12))).error).toBe("NTP error: reply of 12 bytes, expected 48");
  });
  test("a reply to another request (wrong origin timestamp) is ignored: the check times out", async () => {
    const r = await ask((req) => fakeReply(req, { origin: Buffer.alloc(8, 1) }), {}, 300);
    expect(r).toEqual({ up: false, responseTime: null, error: "timeout after 0.3 s" });
  });
});

describe("ntp timestamps", () => {
  test("round trip through the NTP format, across the 2036 era boundary", () => {
    for (const ms of [Date.UTC(2026, 10, 27, 12, 0, 0, 250), Date.UTC(2040, 0, 1)]) {
      const b = Buffer.alloc(8);
      writeTimestamp(ms, b, 0);
      expect(Math.abs(readTimestamp(b, 0) - ms)).toBeLessThan(0.001);
    }
  });
});

describe("ntp settings", () => {
  const messageOf = (value: Record<string, unknown>): string | null => {
    const full = Value.Default(ntpSettings, structuredClone(value));
    const first = Value.Errors(ntpSettings, full).First();
    if (!first) return null;
    const field = first.path.split("/")[1] as keyof typeof ntpSettings.properties;
    return ntpSettings.properties[field].error as string;
  };
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as HttpError).code;
    }
    return null;
  };

  test("defaults: port 123, stratum 4, offset 1000 ms", () => {
    expect(Value.Default(ntpSettings, { host: "pool.ntp.org" })).toEqual({ host: "pool.ntp.org", port: 123, maxStratum: 4, maxOffsetMs: 1000 });
    expect(messageOf({ host: "pool.ntp.org" })).toBeNull();
  });
  test("a bad field gives its message", () => {
    expect(messageOf({})).toStartWith("Host must be");
    expect(messageOf({ host: "" })).toStartWith("Host must be");
    expect(messageOf({ host: "a", port: 0 })).toBe("Port must be a whole number from 1 to 65535");
    expect(messageOf({ host: "a", maxStratum: 16 })).toBe("Highest stratum must be a whole number from 1 to 15");
    expect(messageOf({ host: "a", maxStratum: 2.5 })).toBe("Highest stratum must be a whole number from 1 to 15");
    expect(messageOf({ host: "a", maxOffsetMs: 0 })).toStartWith("Largest clock offset must be");
  });
  test("normalise: the host in its usual form; a URL or a metadata address refused", () => {
    const s = { host: " Time.Example.com. ", port: 123, maxStratum: 4, maxOffsetMs: 1000 };
    expect(ntpType.normalise!(s, ALLOW_PRIVATE).host).toBe("time.example.com");
    expect(ntpType.target({ ...s, host: "::1" })).toBe("[::1]:123");
    expect(codeOf(() => ntpType.normalise!({ ...s, host: "ntp://x" }, ALLOW_PRIVATE))).toBe("INVALID_HOST");
    expect(codeOf(() => ntpType.normalise!({ ...s, host: "169.254.169.254" }, ALLOW_PRIVATE))).toBe("TARGET_FORBIDDEN");
  });
});
