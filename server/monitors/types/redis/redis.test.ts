// The redis check against a real redis-server (Debian's redis-server package), started once for this file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpError } from "../../../http/http-error";
import { ALLOW_PRIVATE, defaultResolve, type Resolve, type TargetPolicy } from "../../../net/targets";
import { closedPort, selfSignedCert } from "../../test-target";
import type { SettingsCheckContext } from "../settings-type";
import { redisSettings } from "./settings";
import { redisType } from "./redis";
import { RedisClient } from "bun";

const binary = Bun.which("redis-server");
const missing = !binary && !process.env.CI;
const PASSWORD = "s3cr:t@pw/Ω";
const ACL_PASSWORD = "m0n-pass#1";
let dir = "";
let port = 0;
let tlsPort = 0;
let server: ReturnType<typeof Bun.spawn> | undefined;
let silent: Server | undefined;
let silentPort = 0;
const silentSockets: Socket[] = [];
const silentClosed = new Set<Socket>();

const ctx = (timeoutMs = 5000, policy: TargetPolicy = ALLOW_PRIVATE, resolve: Resolve = defaultResolve): SettingsCheckContext => ({
  timeoutMs,
  signal: AbortSignal.timeout(timeoutMs),
  policy,
  resolve,
  now: Date.now,
});
const settings = (over: Partial<typeof redisSettings.static> = {}) =>
  ({ ...(Value.Default(redisSettings, { host: "127.0.0.1" }) as object), port, password: PASSWORD, ...over }) as typeof redisSettings.static;

async function waitForPort(p: number) {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = Bun.connect({ hostname: "127.0.0.1", port: p, socket: { open: (sock) => (sock.end(), resolve(true)), data() {}, connectError: () => resolve(false) } }).catch(() => resolve(false));
      void s;
    });
    if (ok) return;
    await Bun.sleep(50);
  }
  throw new Error(`redis-server did not listen on ${p}`);
}

/** A listener whose connections get `onSocket`; for the handshake cases redis-server cannot be made to show. */
async function listener(onSocket: (socket: Socket) => void): Promise<{ port: number; closed: () => number }> {
  let closed = 0;
  const s = createServer((socket) => {
    socket.on("error", () => {});
    socket.on("close", () => closed++);
    onSocket(socket);
  });
  extra.push(s);
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return { port: (s.address() as { port: number }).port, closed: () => closed };
}
const extra: Server[] = [];

beforeAll(async () => {
  silent = createServer((socket) => {
    silentSockets.push(socket);
    socket.on("error", () => {});
    socket.on("close", () => silentClosed.add(socket));
    socket.resume(); // reads (and drops) what comes, or the client's close would never be seen
  });
  await new Promise<void>((resolve) => silent!.listen(0, "127.0.0.1", resolve));
  silentPort = (silent.address() as { port: number }).port;
  if (!binary) return;
  dir = mkdtempSync(join(tmpdir(), "vigil-redis-"));
  port = closedPort();
  tlsPort = closedPort();
  const cert = selfSignedCert();
  const tlsArgs: string[] = [];
  if (cert) {
    writeFileSync(join(dir, "cert.pem"), cert.cert);
    writeFileSync(join(dir, "key.pem"), cert.key);
    tlsArgs.push("--tls-port", String(tlsPort), "--tls-cert-file", join(dir, "cert.pem"), "--tls-key-file", join(dir, "key.pem"), "--tls-auth-clients", "no");
  }
  server = Bun.spawn(
    [binary, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--requirepass", PASSWORD,
      // An ACL user that may read and PING but not SELECT another database or write.
      "--user", "monitor", "on", `>${ACL_PASSWORD}`, "~*", "+@read", "+ping", "-select", ...tlsArgs],
    { stdout: "ignore", stderr: "ignore" },
  );
  await waitForPort(port);
  const admin = new RedisClient(`redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`);
  await admin.send("SET", ["health", "ok"]);
  await admin.send("HSET", ["ahash", "f", "v"]);
  admin.close();
});

afterAll(() => {
  server?.kill();
  silent?.close();
  extra.forEach((s) => s.close());
  silentSockets.forEach((s) => s.destroy());
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The error never shows a password, whatever happened. */
const noSecret = (error: string | null) => {
  for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), ACL_PASSWORD]) expect(error ?? "").not.toContain(secret);
};

describe.skipIf(missing)("redis check against redis-server", () => {
  test("PING with the password is up, with a response time", async () => {
    const r = await redisType.check(settings(), ctx());
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    expect(r.responseTime).toBeLessThan(2000);
  });

  test("an ACL user reads a key; the reply equals the expected value", async () => {
    const r = await redisType.check(settings({ username: "monitor", password: ACL_PASSWORD, command: "GET health", expected: "ok" }), ctx());
    expect(r).toMatchObject({ up: true, error: null });
  });

  test("another database and a reply that contains a keyword", async () => {
    const r = await redisType.check(settings({ database: 3, command: "INFO server", expected: "redis_version:", expectedMatch: "contains" }), ctx());
    expect(r).toMatchObject({ up: true, error: null });
  });

  test("nothing listening: connection refused", async () => {
    const r = await redisType.check(settings({ port: closedPort() }), ctx());
    expect(r).toMatchObject({ up: false, responseTime: null, error: "connection refused" });
  });

  test("a wrong password, no password and a wrong ACL password: authentication failed, no secret shown", async () => {
    for (const over of [{ password: "wrong-password" }, { password: "" }, { username: "monitor", password: "nope-nope" }, { username: "ghost", password: PASSWORD }]) {
      const r = await redisType.check(settings(over), ctx());
      expect(r).toMatchObject({ up: false, error: "authentication failed" });
      noSecret(r.error);
    }
  });

  test("a server that accepts and never answers: timeout within the limit, the socket closed", async () => {
    const before = silentSockets.length;
    const started = performance.now();
    const r = await redisType.check(settings({ port: silentPort }), ctx(600));
    expect(r).toMatchObject({ up: false, error: "timeout after 0.6 s" });
    expect(performance.now() - started).toBeLessThan(600 + 400);
    expect(silentSockets.length).toBe(before + 1);
    // The close reaches the listener a moment later (longer on a busy machine).
    for (let i = 0; i < 100 && !silentClosed.has(silentSockets.at(-1)!); i++) await Bun.sleep(20);
    expect(silentClosed.has(silentSockets.at(-1)!)).toBe(true);
  });

  test("a server that completes the handshake, then never answers the command: timeout, the socket closed", async () => {
    const l = await listener((socket) =>
      socket.on("data", (d) => {
        if (d.toString().includes("HELLO")) socket.write("%1\r\n+server\r\n+redis\r\n");
      }),
    );
    const started = performance.now();
    const r = await redisType.check(settings({ port: l.port, password: "" }), ctx(500));
    expect(r).toMatchObject({ up: false, error: "timeout after 0.5 s" });
    expect(performance.now() - started).toBeLessThan(500 + 400);
    for (let i = 0; i < 100 && l.closed() === 0; i++) await Bun.sleep(20);
    expect(l.closed()).toBe(1);
  });

  test("a server that closes at once: a Redis error, not a refusal", async () => {
    const l = await listener((socket) => socket.destroy());
    const r = await redisType.check(settings({ port: l.port }), ctx());
    expect(r).toMatchObject({ up: false, error: "Redis error: the server closed the connection before it was ready" });
  });

  test("failed assertions: another value, a missing key, a reply without the keyword", async () => {
    let r = await redisType.check(settings({ command: "GET health", expected: "fine" }), ctx());
    expect(r).toMatchObject({ up: false, error: 'expected value == "fine", got "ok"' });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    r = await redisType.check(settings({ command: "GET nothing-here", expected: "ok" }), ctx());
    expect(r.error).toBe('expected value == "ok", got null');
    r = await redisType.check(settings({ command: "ECHO hello", expected: "bye", expectedMatch: "contains" }), ctx());
    expect(r.error).toBe('expected value contains "bye", got "hello"');
    r = await redisType.check(settings({ command: 'ECHO "not pong"' }), ctx());
    expect(r.error).toBeNull();
  });

  test("a command the server refuses: query failed with its words", async () => {
    let r = await redisType.check(settings({ command: "GET ahash" }), ctx());
    expect(r.up).toBe(false);
    expect(r.error).toStartWith("query failed: WRONGTYPE");
    // The ACL user may not SELECT: Bun selects the database right after connecting.
    r = await redisType.check(settings({ username: "monitor", password: ACL_PASSWORD, database: 2 }), ctx());
    expect(r.error).toStartWith("query failed: NOPERM");
    noSecret(r.error);
  });

  test("the address policy refuses 127.0.0.1 and a name resolving to it, before any connection", async () => {
    const before = silentSockets.length;
    const strict = { allowPrivate: false };
    let r = await redisType.check(settings({ port: silentPort }), ctx(2000, strict));
    expect(r.error).toStartWith("Target refused:");
    const resolve: Resolve = async (h) => (h === "cache.test" ? ["127.0.0.1"] : []);
    r = await redisType.check(settings({ host: "cache.test", port: silentPort }), ctx(2000, strict, resolve));
    expect(r.error).toStartWith("Target refused: cache.test resolves to");
    await Bun.sleep(50);
    expect(silentSockets.length).toBe(before);
  });

  test("a name is resolved and the address connected to", async () => {
    const resolve: Resolve = async (h) => (h === "cache.test" ? ["127.0.0.1"] : []);
    expect(await redisType.check(settings({ host: "cache.test" }), ctx(5000, ALLOW_PRIVATE, resolve))).toMatchObject({ up: true });
  });

  test("TLS: a self-signed certificate is refused unless TLS errors are ignored", async () => {
    let r = await redisType.check(settings({ port: tlsPort, tls: true, ignoreTls: true }), ctx());
    expect(r).toMatchObject({ up: true, error: null });
    r = await redisType.check(settings({ port: tlsPort, tls: true }), ctx());
    expect(r.up).toBe(false);
    expect(r.error).toBe("TLS error: self-signed certificate");
  });

  test("a stopped check is cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await redisType.check(settings(), { ...ctx(), signal: controller.signal });
    expect(r).toMatchObject({ up: false, error: "check cancelled" });
  });

  test("a command outside the allow-list is never sent, even if the settings skipped normalise", async () => {
    const r = await redisType.check(settings({ command: "FLUSHALL" }), ctx());
    expect(r.up).toBe(false);
    expect(r.error).toStartWith("Redis error: Command must be a read-only one");
  });
});

describe("redis settings", () => {
  const firstError = (value: Record<string, unknown>) => {
    const error = Value.Errors(redisSettings, Value.Default(redisSettings, structuredClone(value))).First();
    return error ? (error.schema as { error?: string }).error : null;
  };
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return [(e as HttpError).code, (e as HttpError).message];
    }
    return null;
  };
  const normalise = (over: Record<string, unknown>) =>
    redisType.normalise!({ ...(Value.Default(redisSettings, { host: "127.0.0.1" }) as object), ...over } as typeof redisSettings.static, ALLOW_PRIVATE);

  test("defaults: port 6379, database 0, PING; only the host is required", () => {
    expect(Value.Default(redisSettings, { host: "cache" })).toMatchObject({ port: 6379, database: 0, command: "PING", tls: false, expected: "", expectedMatch: "equals" });
    expect(firstError({ host: "cache" })).toBeNull();
    expect(firstError({})).toStartWith("Host must be");
  });

  test("a bad field gives its own message", () => {
    expect(firstError({ host: "cache", port: 0 })).toBe("Port must be a whole number from 1 to 65535");
    expect(firstError({ host: "cache", database: 16 })).toBe("Database must be a whole number from 0 to 15");
    expect(firstError({ host: "cache", command: "" })).toStartWith("Command must be 1 to 1 000 characters");
    expect(firstError({ host: "cache", expectedMatch: "like" })).toBe("Match must be equals or contains");
    expect(firstError({ host: "cache", tls: "yes" })).toBe("TLS must be true or false");
  });

  test("the password is a secret", () => {
    expect((redisSettings.properties.password as { secret?: unknown }).secret).toBe(true);
  });

  test("normalise: host spelled as usual, command name in capitals, arguments kept", () => {
    expect(normalise({ host: " Cache.Example.com. ", command: "  get  health " })).toMatchObject({ host: "cache.example.com", command: "GET  health" });
    expect(normalise({ host: "[::1]", command: "ping" })).toMatchObject({ host: "::1", command: "PING" });
    expect(redisType.target(normalise({ host: "::1" }))).toBe("[::1]:6379");
  });

  test("normalise refuses write and dangerous commands with a 400 naming the allowed ones", () => {
    for (const command of ["SET a b", "flushall", "CONFIG GET *", "KEYS *", "EVAL x 0", "DEL health", 'GET "unterminated']) {
      const [code, message] = codeOf(() => normalise({ command }))!;
      expect(code).toBe("COMMAND_NOT_ALLOWED");
      expect(message).toStartWith("Command must be a read-only one with its arguments: PING, ECHO, GET");
    }
  });

  test("normalise refuses a bad host and a metadata address", () => {
    expect(codeOf(() => normalise({ host: "redis://cache:6379" }))![0]).toBe("INVALID_HOST");
    expect(codeOf(() => normalise({ host: "169.254.169.254" }))![0]).toBe("TARGET_FORBIDDEN");
  });
});
