// The snmp type against a real agent (Debian's snmpd), started once for the file on a free UDP port with a temp
// snmpd.conf and stopped by PID.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSocket, type Socket } from "node:dgram";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import type { HttpError } from "../../../http/http-error";
import { ALLOW_PRIVATE, defaultResolve, type TargetPolicy } from "../../../net/targets";
import type { SettingsCheckContext } from "../settings-type";
import { snmpSettings } from "./settings";
import { holds, snmpType } from "./snmp";

const SNMPD = Bun.which("snmpd") ?? Bun.which("/usr/sbin/snmpd");
const noServer = !SNMPD && !process.env.CI;
const COMMUNITY = "vigil-community";
const AUTH_KEY = "auth-pass-123";
const PRIV_KEY = "priv-pass-123";

const context = (timeoutMs = 3000, policy: TargetPolicy = ALLOW_PRIVATE): SettingsCheckContext => ({
  timeoutMs,
  signal: AbortSignal.timeout(timeoutMs),
  policy,
  resolve: defaultResolve,
  now: Date.now,
});

/** A free UDP port on 127.0.0.1 (bound, then released). */
async function freeUdpPort(): Promise<number> {
  const s = createSocket("udp4");
  await new Promise<void>((r) => s.bind(0, "127.0.0.1", r));
  const port = s.address().port;
  await new Promise<void>((r) => s.close(r));
  return port;
}

let dir = "";
let agent: ReturnType<typeof Bun.spawn> | null = null;
let port = 0;
const sockets: Socket[] = [];

const settings = (over: Partial<Parameters<typeof snmpType.check>[0]> = {}) => ({
  host: "127.0.0.1",
  port,
  version: "v2c" as const,
  community: COMMUNITY,
  username: "",
  securityLevel: "authPriv" as const,
  authProtocol: "sha" as const,
  authKey: "",
  privProtocol: "aes" as const,
  privKey: "",
  oid: "1.3.6.1.2.1.1.3.0",
  operator: "==" as const,
  expected: "",
  ...over,
});
const v3 = (over: Partial<Parameters<typeof snmpType.check>[0]> = {}) =>
  settings({ version: "v3", username: "vigiluser", authKey: AUTH_KEY, privKey: PRIV_KEY, ...over });
const SYS_LOCATION = "1.3.6.1.2.1.1.6.0";

beforeAll(async () => {
  if (!SNMPD) return;
  dir = mkdtempSync(join(tmpdir(), "vigil-snmpd-"));
  port = await freeUdpPort();
  writeFileSync(
    join(dir, "snmpd.conf"),
    [
      `agentAddress udp:127.0.0.1:${port}`,
      `rocommunity ${COMMUNITY} 127.0.0.1`,
      `createUser vigiluser SHA "${AUTH_KEY}" AES "${PRIV_KEY}"`,
      `createUser vigildes MD5 "${AUTH_KEY}" DES "${PRIV_KEY}"`,
      "rouser vigiluser priv",
      "rouser vigildes priv",
      "sysLocation Vigil test rack",
    ].join("\n"),
  );
  // -C: no other config file; the v3 users' keys are kept in the temp dir (SNMP_PERSISTENT_DIR); no MIB files read.
  agent = Bun.spawn([SNMPD, "-f", "-Lo", "-C", "-c", join(dir, "snmpd.conf"), "-p", join(dir, "snmpd.pid")], {
    env: { ...process.env, SNMP_PERSISTENT_DIR: dir, MIBS: "", MIBDIRS: dir },
    stdout: "ignore",
    stderr: "ignore",
  });
  for (let i = 0; i < 50; i++) {
    if ((await snmpType.check(settings(), context(200))).up) return;
    await Bun.sleep(100);
  }
  throw new Error("snmpd did not answer");
});

afterAll(async () => {
  sockets.forEach((s) => s.close());
  if (agent) {
    agent.kill();
    await agent.exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(noServer)("snmp check against snmpd", () => {
  test("v2c and v1 GET of sysUpTime: up, with the response time", async () => {
    const r = await snmpType.check(settings(), context());
    expect(r).toEqual({ up: true, responseTime: expect.any(Number), error: null });
    expect(r.responseTime!).toBeLessThan(1000);
    expect((await snmpType.check(settings({ version: "v1" }), context())).up).toBe(true);
  });

  test("v3 authPriv (SHA/AES and MD5/DES) and the value compared", async () => {
    expect(await snmpType.check(v3({ oid: SYS_LOCATION, operator: "contains", expected: "test rack" }), context())).toMatchObject({ up: true });
    expect(await snmpType.check(v3({ username: "vigildes", authProtocol: "md5", privProtocol: "des" }), context())).toMatchObject({ up: true });
  });

  test("operators: a text value and a number", async () => {
    expect((await snmpType.check(settings({ oid: SYS_LOCATION, expected: "Vigil test rack" }), context())).up).toBe(true);
    expect((await snmpType.check(settings({ oid: SYS_LOCATION, operator: "!=", expected: "elsewhere" }), context())).up).toBe(true);
    expect((await snmpType.check(settings({ operator: ">", expected: "0" }), context())).up).toBe(true);
  });

  test("a failed assertion: the expectation and the value", async () => {
    const r = await snmpType.check(settings({ oid: SYS_LOCATION, expected: "Server room" }), context());
    expect(r).toMatchObject({ up: false, error: 'expected value == "Server room", got "Vigil test rack"' });
    expect(r.responseTime).not.toBeNull();
    expect((await snmpType.check(settings({ operator: "<", expected: "0" }), context())).error).toStartWith('expected value < "0", got "');
  });

  test("an OID the agent does not have: its SNMP error", async () => {
    expect((await snmpType.check(settings({ oid: "1.3.6.1.2.1.1.99.0" }), context())).error).toBe("SNMP error: NoSuchObject: 1.3.6.1.2.1.1.99.0");
    expect((await snmpType.check(settings({ version: "v1", oid: "1.3.6.1.2.1.1.99.0" }), context())).error).toBe("SNMP error: NoSuchName: 1.3.6.1.2.1.1.99.0");
  });

  test("v3 wrong credentials: authentication failed; no secret in any error", async () => {
    for (const s of [v3({ authKey: "wrong-auth-key" }), v3({ username: "nobody" })]) {
      const r = await snmpType.check(s, context());
      expect(r).toMatchObject({ up: false, responseTime: null, error: "authentication failed" });
    }
    const errors = [await snmpType.check(v3({ securityLevel: "authNoPriv" }), context(500)), await snmpType.check(v3({ privKey: "wrong-priv-key" }), context(500))];
    for (const r of errors) for (const secret of [AUTH_KEY, PRIV_KEY, COMMUNITY]) expect(r.error).not.toContain(secret);
  });

  test("a wrong community gets no answer at all (SNMP's way): the timeout sentence", async () => {
    const started = performance.now();
    const r = await snmpType.check(settings({ community: "not-the-community" }), context(500));
    expect(r).toEqual({ up: false, responseTime: null, error: "timeout after 0.5 s" });
    expect(performance.now() - started).toBeLessThan(900);
  });
});

describe("snmp check, failures", () => {
  /** A UDP socket that takes requests and never answers; `seen` has the sender of each. */
  async function silentAgent() {
    const socket = createSocket("udp4");
    const seen: number[] = [];
    socket.on("message", (_m, from) => seen.push(from.port));
    await new Promise<void>((r) => socket.bind(0, "127.0.0.1", r));
    sockets.push(socket);
    return { port: socket.address().port, seen, socket };
  }

  test("nothing listening: no answer, the timeout sentence", async () => {
    expect((await snmpType.check(settings({ port: await freeUdpPort() }), context(400))).error).toBe("timeout after 0.4 s");
  });

  test("an agent that never answers: the timeout sentence within the timeout, our socket closed", async () => {
    const silent = await silentAgent();
    const started = performance.now();
    const r = await snmpType.check(settings({ port: silent.port }), context(500));
    expect(r).toEqual({ up: false, responseTime: null, error: "timeout after 0.5 s" });
    expect(performance.now() - started).toBeLessThan(900);
    expect(silent.seen.length).toBeGreaterThanOrEqual(1);
    // net-snmp's socket takes datagrams from anyone while open: one sent to it now must come back "port unreachable".
    const probe = createSocket("udp4");
    const outcome = await new Promise<string>((resolve) => {
      probe.on("error", (e) => resolve((e as NodeJS.ErrnoException).code ?? e.message));
      probe.connect(silent.seen[0]!, "127.0.0.1", () => probe.send(Buffer.alloc(1)));
      setTimeout(() => resolve("no error"), 500);
    });
    probe.close();
    expect(outcome).toBe("ECONNREFUSED");
  });

  test("a stopped check is cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await snmpType.check(settings(), { ...context(), signal: controller.signal })).error).toBe("check cancelled");
  });

  test("the address policy refuses a private address before any request", async () => {
    const silent = await silentAgent();
    const r = await snmpType.check(settings({ port: silent.port }), context(1000, { allowPrivate: false }));
    expect(r.error).toStartWith("Target refused: ");
    await Bun.sleep(50);
    expect(silent.seen).toHaveLength(0);
  });
});

describe("snmp comparisons", () => {
  test("numbers as numbers, text as text", () => {
    expect(holds("10", "==", "10.0")).toBe(true);
    expect(holds("9", "<", "10")).toBe(true);
    expect(holds("abc", ">", "1")).toBe(false);
    expect(holds("up(1)", "contains", "up")).toBe(true);
    expect(holds("a", "!=", "b")).toBe(true);
  });
});

describe("snmp settings", () => {
  const messageOf = (value: Record<string, unknown>): string | null => {
    const first = Value.Errors(snmpSettings, Value.Default(snmpSettings, structuredClone(value))).First();
    return first ? ((snmpSettings.properties as Record<string, { error?: string }>)[first.path.split("/")[1]!]!.error ?? first.message) : null;
  };
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as HttpError).code;
    }
    return null;
  };

  test("defaults: v2c, community public, sysUpTime.0, no comparison", () => {
    const d = Value.Default(snmpSettings, { host: "switch.example.com" }) as Record<string, unknown>;
    expect(d).toMatchObject({ port: 161, version: "v2c", community: "public", oid: "1.3.6.1.2.1.1.3.0", expected: "" });
    expect(messageOf({ host: "switch.example.com" })).toBeNull();
    expect(snmpType.target(settings({ host: "::1", port: 1161 }))).toBe("[::1]:1161 1.3.6.1.2.1.1.3.0");
  });

  test("a bad field gives its message", () => {
    expect(messageOf({ host: "a", oid: "system.sysUpTime" })).toBe("The OID must be numbers separated by dots (1.3.6.1.2.1.1.3.0)");
    expect(messageOf({ host: "a", version: "v4" })).toBe("Version must be one of: v1, v2c, v3");
    expect(messageOf({ host: "a", operator: ">=" })).toBe("The operator must be one of: ==, !=, <, >, contains");
    expect(messageOf({ host: "a", authProtocol: "sha1" })).toStartWith("Authentication protocol must be one of");
    expect(messageOf({ host: "a", port: 0 })).toBe("Port must be a whole number from 1 to 65535");
  });

  test("community and keys are the secrets", () => {
    expect(Object.entries(snmpSettings.properties).filter(([, p]) => (p as { secret?: unknown }).secret).map(([k]) => k)).toEqual(["community", "authKey", "privKey"]);
  });

  test("normalise: host, leading dot of the OID, v3 needs a user and 8-character keys", () => {
    const s = settings({ host: " Switch.Example.com. ", oid: ".1.3.6.1.2.1.1.5.0" });
    expect(snmpType.normalise!(s, ALLOW_PRIVATE)).toMatchObject({ host: "switch.example.com", oid: "1.3.6.1.2.1.1.5.0" });
    expect(codeOf(() => snmpType.normalise!({ ...s, host: "169.254.169.254" }, ALLOW_PRIVATE))).toBe("TARGET_FORBIDDEN");
    expect(codeOf(() => snmpType.normalise!(v3({ username: "" }), ALLOW_PRIVATE))).toBe("SNMP_USER_REQUIRED");
    expect(codeOf(() => snmpType.normalise!(v3({ privKey: "short" }), ALLOW_PRIVATE))).toBe("SNMP_KEY_REQUIRED");
    expect(codeOf(() => snmpType.normalise!(v3({ securityLevel: "noAuthNoPriv", authKey: "", privKey: "" }), ALLOW_PRIVATE))).toBeNull();
  });
});
