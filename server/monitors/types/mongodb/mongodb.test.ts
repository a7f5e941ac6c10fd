// The mongodb check against the responder (responder.ts): the official driver, the wire protocol, the policy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FormatRegistry } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { HttpError } from "../../../http/http-error";
import { ALLOW_PRIVATE, defaultResolve, type Resolve, type TargetPolicy } from "../../../net/targets";
import { closedPort } from "../../test-target";
import { maskSettings, type SettingsCheckContext } from "../settings-type";
import { mongodbType } from "./mongodb";
import { startResponder, type Responder } from "./responder";
import { mongodbSettings } from "./settings";

type Settings = typeof mongodbSettings.static;
const PASSWORD = "p@ss:w0rd/secret";
let server: Responder;
let silent: Responder;
let handshakeOnly: Responder;

beforeAll(async () => {
  [server, silent, handshakeOnly] = await Promise.all([startResponder(), startResponder("silent"), startResponder("handshake")]);
});
afterAll(async () => {
  await Promise.all([server.stop(), silent.stop(), handshakeOnly.stop()]);
});

const ctx = (timeoutMs = 5000, policy: TargetPolicy = ALLOW_PRIVATE, resolve: Resolve = defaultResolve): SettingsCheckContext => ({
  timeoutMs,
  signal: AbortSignal.timeout(timeoutMs),
  policy,
  resolve,
  now: Date.now,
});
const settings = (over: Partial<Settings> = {}): Settings =>
  ({ ...(Value.Default(mongodbSettings, { connectionString: `mongodb://127.0.0.1:${server.port}/` }) as object), ...over }) as Settings;
const withPassword = (port: number, password = PASSWORD) => `mongodb://vigil:${encodeURIComponent(password)}@127.0.0.1:${port}/?authSource=admin`;
const noSecret = (error: string | null) => {
  expect(error ?? "").not.toContain(PASSWORD);
  expect(error ?? "").not.toContain(encodeURIComponent(PASSWORD));
};

describe("mongodb check against the responder", () => {
  test("ping is up, with a response time; the server saw the handshake and the ping", async () => {
    const before = server.commands.length;
    const r = await mongodbType.check(settings(), ctx());
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    expect(r.responseTime).toBeLessThan(3000);
    const seen = server.commands.slice(before);
    expect(seen.some((c) => c === "hello" || c.toLowerCase() === "ismaster")).toBe(true);
    expect(seen).toContain("ping");
  });

  test("another command in another database, a keyword found in its reply", async () => {
    const r = await mongodbType.check(settings({ command: '{"dbStats":1}', database: "shop", expected: '"db":"shop"' }), ctx());
    expect(r).toMatchObject({ up: true, error: null });
    expect(await mongodbType.check(settings({ command: '{"buildInfo":1}', expected: "7.0.0" }), ctx())).toMatchObject({ up: true });
  });

  test("nothing listening: connection refused, at once", async () => {
    const started = performance.now();
    const r = await mongodbType.check(settings({ connectionString: `mongodb://127.0.0.1:${closedPort()}/` }), ctx());
    expect(r).toMatchObject({ up: false, responseTime: null, error: "connection refused" });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test("wrong credentials: authentication failed, and the password is nowhere in the error", async () => {
    const r = await mongodbType.check(settings({ connectionString: withPassword(server.port) }), ctx());
    expect(r).toMatchObject({ up: false, error: "authentication failed" });
    expect(server.commands).toContain("saslStart");
    noSecret(r.error);
  });

  test("a server that accepts and never answers: timeout within the limit, every socket closed", async () => {
    for (const s of [silent, handshakeOnly]) {
      const started = performance.now();
      const r = await mongodbType.check(settings({ connectionString: withPassword(s.port) }), ctx(700));
      expect(r).toMatchObject({ up: false, error: "timeout after 0.7 s" });
      expect(performance.now() - started).toBeLessThan(700 + 500);
      expect(s.accepted()).toBeGreaterThan(0);
      // A connection still in its handshake is closed by the driver's own timeout (set just under the check's), which
      // can land a little after the check returned on a busy machine: allow for that, no more.
      for (let i = 0; i < 30 && s.closed() < s.accepted(); i++) await Bun.sleep(50);
      expect(s.closed()).toBe(s.accepted());
    }
  });

  test("failed assertions: a keyword missing, a command the server refuses", async () => {
    let r = await mongodbType.check(settings({ expected: "primary" }), ctx());
    expect(r).toMatchObject({ up: false, error: 'keyword "primary" not found' });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    r = await mongodbType.check(settings({ command: '{"serverStatus":1}' }), ctx());
    expect(r).toMatchObject({ up: false, error: "query failed: not authorized on admin to execute command { serverStatus: 1 }" });
  });

  test("the address policy refuses 127.0.0.1 and a name resolving to it, before any connection", async () => {
    const before = server.accepted();
    const strict = { allowPrivate: false };
    let r = await mongodbType.check(settings(), ctx(2000, strict));
    expect(r.error).toStartWith("Target refused:");
    const resolve: Resolve = async (h) => (h === "db.test" ? ["127.0.0.1"] : []);
    r = await mongodbType.check(settings({ connectionString: `mongodb://db.test:${server.port},127.0.0.2:${server.port}/` }), ctx(2000, strict, resolve));
    expect(r.error).toStartWith("Target refused: db.test resolves to");
    await Bun.sleep(50);
    expect(server.accepted()).toBe(before);
  });

  test("a name the driver connects to is resolved and judged through its lookup", async () => {
    const resolve: Resolve = async (h) => (h === "db.test" ? ["127.0.0.1"] : []);
    const s = settings({ connectionString: `mongodb://db.test:${server.port}/` });
    expect(await mongodbType.check(s, ctx(5000, ALLOW_PRIVATE, resolve))).toMatchObject({ up: true, error: null });
  });

  test("a stopped check is cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await mongodbType.check(settings(), { ...ctx(), signal: controller.signal })).toMatchObject({ up: false, error: "check cancelled" });
  });

  test("a command outside the allow-list is never sent, even if the settings skipped normalise", async () => {
    const before = server.commands.length;
    const r = await mongodbType.check(settings({ command: '{"dropDatabase":1}' }), ctx());
    expect(r.error).toStartWith("MongoDB error: Command must be a JSON object naming a read-only command");
    expect(server.commands.length).toBe(before);
  });
});

describe("mongodb settings", () => {
  // "textarea" is a hint for the form, not a constraint: TypeBox must be told so (whatever validates these schemas must too).
  if (!FormatRegistry.Has("textarea")) FormatRegistry.Set("textarea", () => true);
  const firstError = (value: Record<string, unknown>) => {
    const error = Value.Errors(mongodbSettings, Value.Default(mongodbSettings, structuredClone(value))).First();
    return error ? (error.schema as { error?: string }).error : null;
  };
  const fail = (over: Partial<Settings>) => {
    try {
      mongodbType.normalise!(settings(over), ALLOW_PRIVATE);
    } catch (e) {
      return [(e as HttpError).code, (e as HttpError).message];
    }
    return null;
  };

  test("defaults: admin, ping; only the connection string is required", () => {
    expect(Value.Check(mongodbSettings, Value.Default(mongodbSettings, { connectionString: "mongodb://db" }))).toBe(true);
    expect(Value.Default(mongodbSettings, { connectionString: "mongodb://db" })).toMatchObject({ database: "admin", command: '{"ping":1}', expected: "" });
    expect(firstError({ connectionString: "mongodb://db" })).toBeNull();
    expect(firstError({})).toStartWith("Connection string must start with mongodb://");
  });

  test("a bad field gives its own message", () => {
    expect(firstError({ connectionString: "postgres://db/app" })).toStartWith("Connection string must start with mongodb://");
    expect(firstError({ connectionString: "mongodb://db", database: "a.b" })).toStartWith("Database must be a database name");
    expect(firstError({ connectionString: "mongodb://db", command: "" })).toStartWith("Command must be a JSON object");
  });

  test("the connection string is a URL secret: only its password is masked", () => {
    const masked = maskSettings(mongodbSettings, settings({ connectionString: withPassword(27017) }));
    expect(masked.connectionString).toBe("mongodb://vigil:••••••••@127.0.0.1:27017/?authSource=admin");
  });

  test("normalise accepts the usual strings and the allowed commands", () => {
    for (const connectionString of ["mongodb://db.example.com", "mongodb://u:p@a:27017,b:27018/app?replicaSet=rs0", "mongodb+srv://cluster0.example.net/?retryWrites=true", "mongodb://[::1]:27017/"]) {
      expect(fail({ connectionString })).toBeNull();
    }
    for (const command of ['{"ping":1}', ' {"hello":1} ', '{"serverStatus":1,"repl":0}', '{"ismaster":1}']) expect(fail({ command })).toBeNull();
    expect(mongodbType.normalise!(settings({ command: ' {"hello":1} ' }), ALLOW_PRIVATE).command).toBe('{"hello":1}');
  });

  test("normalise refuses writes and anything not an allowed command, naming the allowed ones", () => {
    for (const command of ['{"insert":"x","documents":[{}]}', '{"dropDatabase":1}', '{"find":"users"}', "ping", "[1]", '{"ping":1,"$db":"x"}', '{"PING":1}']) {
      const [code, message] = fail({ command })!;
      expect(code).toBe("COMMAND_NOT_ALLOWED");
      expect(message).toContain("ping, hello, isMaster, buildInfo");
    }
  });

  test("normalise refuses bad strings, bad hosts and forbidden addresses, without the password", () => {
    expect(fail({ connectionString: "mongodb://" })![0]).toBe("INVALID_CONNECTION_STRING");
    expect(fail({ connectionString: "mongodb+srv://a.example.com,b.example.com/" })![0]).toBe("INVALID_CONNECTION_STRING");
    expect(fail({ connectionString: "mongodb://db:99999/" })![0]).toBe("INVALID_CONNECTION_STRING");
    expect(fail({ connectionString: "mongodb://bad_host!:27017/" })![0]).toBe("INVALID_HOST");
    expect(fail({ connectionString: "mongodb://169.254.169.254:27017/" })![0]).toBe("TARGET_FORBIDDEN");
    const [code, message] = fail({ connectionString: `mongodb://vigil:${encodeURIComponent(PASSWORD)}@db/?notAnOption=1&authMechanism=NOPE` })!;
    expect(code).toBe("INVALID_CONNECTION_STRING");
    expect(message).not.toContain(PASSWORD);
    expect(message).not.toContain(encodeURIComponent(PASSWORD));
  });

  test("the target lists the hosts, never the credentials", () => {
    expect(mongodbType.target(settings({ connectionString: "mongodb://u:pw@a:27017,[::1]:27018/app" }))).toBe("a:27017,[::1]:27018");
    expect(mongodbType.target(settings({ connectionString: "mongodb+srv://u:pw@cluster0.example.net/" }))).toBe("cluster0.example.net");
  });
});
