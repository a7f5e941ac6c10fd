import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { connect } from "mqtt";
import { HttpError } from "../../../http/http-error";
import { ALLOW_PRIVATE, type Resolve, type TargetPolicy } from "../../../net/targets";
import { parseCheckError } from "../../check-errors";
import { closedPort, selfSignedCert } from "../../test-target";
import type { SettingsCheckContext } from "../settings-type";
import { mqttType } from "./mqtt";
import { mqttSettings } from "./settings";

// Debian's mosquitto (apt-get install mosquitto). Without it the broker tests skip, except under CI.
const MOSQUITTO = [Bun.which("mosquitto"), "/usr/sbin/mosquitto"].find((p) => p && existsSync(p)) ?? null;
const PASSWD = [Bun.which("mosquitto_passwd"), "/usr/bin/mosquitto_passwd"].find((p) => p && existsSync(p)) ?? null;
const skip = !(MOSQUITTO && PASSWD) && !process.env.CI;

type Settings = Static<typeof mqttSettings>;
const PASSWORD = "pw-s3cret-watch";
const resolve: Resolve = async (host) => (host === "localhost" || host === "broker.test" ? ["127.0.0.1"] : Promise.reject(new Error("ENOTFOUND")));
const ctx = (timeoutMs = 3000, policy: TargetPolicy = ALLOW_PRIVATE): SettingsCheckContext => ({
  timeoutMs,
  signal: AbortSignal.timeout(timeoutMs),
  policy,
  resolve,
  now: Date.now,
});

const ports = { tcp: closedPort(), ws: closedPort(), tls: closedPort() };
const settings = (over: Partial<Settings>): Settings => ({
  ...(Value.Default(mqttSettings, { host: "127.0.0.1", port: ports.tcp, topic: "vigil/status" }) as Settings),
  username: "watcher",
  password: PASSWORD,
  ...over,
});

let dir = "";
let broker: ChildProcess | null = null;
const cert = selfSignedCert();

/** Publishes as the publisher user (retained or not) and disconnects. */
async function publish(topic: string, payload: string, retain: boolean): Promise<void> {
  const client = connect({ host: "127.0.0.1", port: ports.tcp, username: "publisher", password: "pub-pw", reconnectPeriod: 0 });
  try {
    await new Promise<void>((ok, fail) => {
      client.on("error", fail);
      client.on("connect", () => client.publish(topic, payload, { qos: 1, retain }, (e) => (e ? fail(e) : ok())));
    });
  } finally {
    client.end(true);
  }
}

async function listening(port: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await Bun.sleep(50)) {
    const open = await new Promise<boolean>((ok) => {
      const s = createConnection({ host: "127.0.0.1", port }, () => ok(true)).on("error", () => ok(false));
      setTimeout(() => (s.destroy(), ok(false)), 200);
    });
    if (open) return true;
  }
  return false;
}

beforeAll(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), "vigil-mosquitto-"));
  spawnSync(PASSWD!, ["-b", "-c", join(dir, "passwd"), "watcher", PASSWORD]);
  spawnSync(PASSWD!, ["-b", join(dir, "passwd"), "publisher", "pub-pw"]);
  const tls = cert ? (writeFileSync(join(dir, "cert.pem"), cert.cert), writeFileSync(join(dir, "key.pem"), cert.key), true) : false;
  writeFileSync(
    join(dir, "mosquitto.conf"),
    [
      "per_listener_settings false",
      "allow_anonymous false",
      `password_file ${join(dir, "passwd")}`,
      "persistence false",
      "log_dest stderr",
      // When the tests run as root, mosquitto would switch to its own user, which cannot read this directory.
      ...(process.getuid?.() === 0 ? ["user root"] : []),
      `listener ${ports.tcp} 127.0.0.1`,
      `listener ${ports.ws} 127.0.0.1`,
      "protocol websockets",
      ...(tls ? [`listener ${ports.tls} 127.0.0.1`, `certfile ${join(dir, "cert.pem")}`, `keyfile ${join(dir, "key.pem")}`] : []),
    ].join("\n") + "\n",
  );
  broker = spawn(MOSQUITTO!, ["-c", join(dir, "mosquitto.conf")], { stdio: "ignore" });
  if (!(await listening(ports.tcp, 5000))) throw new Error("mosquitto did not start");
  await publish("vigil/status", JSON.stringify({ status: "ok", queue: 3 }), true);
});

/** Accepts connections and never answers (no CONNACK); counts the sockets still open. */
const held = new Set<Socket>();
let accepted = 0;
const mute = createServer((socket) => {
  accepted++;
  held.add(socket);
  socket.resume();
  socket.on("close", () => held.delete(socket));
  socket.on("error", () => {});
});
await new Promise<void>((ok) => mute.listen(0, "127.0.0.1", ok));
const mutePort = (mute.address() as { port: number }).port;

afterAll(async () => {
  if (broker?.pid && broker.exitCode === null) {
    const exited = new Promise((ok) => broker!.once("exit", ok));
    process.kill(broker.pid);
    await Promise.race([exited, Bun.sleep(3000)]);
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  mute.close();
});

describe.skipIf(skip)("mqtt check against mosquitto", () => {
  test("a retained message on the topic is up, with the time it took", async () => {
    const r = await mqttType.check(settings({}), ctx());
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    expect(r.responseTime).toBeLessThan(2000);
  });

  test("a message published after the subscription counts too (a wildcard topic)", async () => {
    const pending = mqttType.check(settings({ topic: "vigil/live/+", keyword: "beat" }), ctx());
    await Bun.sleep(300);
    await publish("vigil/live/7", "heart beat 7", false);
    expect(await pending).toMatchObject({ up: true });
  });

  test("over WebSocket, through a name resolved to the address", async () => {
    expect(await mqttType.check(settings({ protocol: "ws", host: "broker.test", port: ports.ws }), ctx())).toMatchObject({ up: true });
  });

  test.skipIf(!cert)("mqtts: a self-signed certificate is refused unless TLS errors are ignored", async () => {
    const tls = { protocol: "mqtts" as const, host: "localhost", port: ports.tls };
    expect(await mqttType.check(settings(tls), ctx())).toMatchObject({ up: false, error: "TLS error: self-signed certificate" });
    expect(await mqttType.check(settings({ ...tls, ignoreTls: true }), ctx())).toMatchObject({ up: true });
  });

  test("keyword and JSON assertions on the message", async () => {
    expect(await mqttType.check(settings({ keyword: '"status":"ok"', jsonPath: "$.queue < 10" }), ctx())).toMatchObject({ up: true });
    expect(await mqttType.check(settings({ keyword: "degraded" }), ctx())).toMatchObject({ up: false, error: 'keyword "degraded" not found' });
    expect(await mqttType.check(settings({ jsonPath: "$.queue < 2" }), ctx())).toMatchObject({ up: false, error: "JSON $.queue < 2 is false (got 3)" });
    expect(await mqttType.check(settings({ jsonPath: "$.missing" }), ctx())).toMatchObject({ up: false, error: "JSON $.missing not found" });
  });

  test("a wrong password is authentication failed, and the password never shows", async () => {
    const r = await mqttType.check(settings({ password: "wrong-pw-xyz" }), ctx());
    expect(r).toMatchObject({ up: false, responseTime: null, error: "authentication failed" });
    expect(parseCheckError(r.error!).code).toBe("AUTH_FAILED");
    const anonymous = await mqttType.check(settings({ username: "", password: "" }), ctx());
    expect(anonymous).toMatchObject({ up: false, error: "authentication failed" });
  });

  test("a topic with nothing on it: no message within the timeout", async () => {
    const started = performance.now();
    const r = await mqttType.check(settings({ topic: "vigil/quiet" }), ctx(600));
    expect(r).toMatchObject({ up: false, error: "no message within 0.6 s" });
    expect(performance.now() - started).toBeLessThan(2500);
  });
});

describe("mqtt check without a broker", () => {
  test("nothing listening: connection refused", async () => {
    expect(await mqttType.check(settings({ port: closedPort() }), ctx())).toMatchObject({ up: false, error: "connection refused" });
  });

  test("a server that never answers: the timeout sentence within the timeout, and the socket closed", async () => {
    const before = accepted;
    const started = performance.now();
    const r = await mqttType.check(settings({ port: mutePort }), ctx(400));
    const took = performance.now() - started;
    expect(r).toMatchObject({ up: false, error: "timeout after 0.4 s" });
    expect(took).toBeGreaterThanOrEqual(380);
    expect(took).toBeLessThan(900);
    expect(accepted).toBe(before + 1);
    await Bun.sleep(100);
    expect(held.size).toBe(0);
  });

  test("a stopped check is cancelled, its socket closed", async () => {
    const controller = new AbortController();
    const pending = mqttType.check(settings({ port: mutePort }), { ...ctx(), signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toMatchObject({ up: false, error: "check cancelled" });
    await Bun.sleep(100);
    expect(held.size).toBe(0);
  });

  test("the address policy refuses a private target before connecting", async () => {
    const before = accepted;
    const strict = { allowPrivate: false };
    expect((await mqttType.check(settings({ port: mutePort }), ctx(3000, strict))).error).toStartWith("Target refused:");
    expect((await mqttType.check(settings({ host: "broker.test", port: mutePort }), ctx(3000, strict))).error).toStartWith("Target refused: broker.test resolves to");
    await Bun.sleep(50);
    expect(accepted).toBe(before);
  });
});

describe("mqtt settings", () => {
  const problem = (value: unknown) => {
    const first = Value.Errors(mqttSettings, Value.Default(mqttSettings, structuredClone(value))).First();
    return first ? (first.schema as { error?: string }).error : null;
  };
  const codeOf = (over: Partial<Settings>) => {
    try {
      mqttType.normalise!(settings(over), ALLOW_PRIVATE);
    } catch (e) {
      return (e as HttpError).code;
    }
    return null;
  };

  test("defaults fill what is left out; the password is a secret; the target names broker and topic", () => {
    expect(Value.Default(mqttSettings, { host: "b.test", topic: "t" })).toEqual({
      protocol: "mqtt", host: "b.test", port: 1883, path: "/mqtt", username: "", password: "", topic: "t", keyword: "", jsonPath: "", ignoreTls: false,
    });
    expect((mqttSettings.properties.password as { secret?: unknown }).secret).toBe(true);
    expect(mqttType.target(settings({ host: "b.test", port: 1883, topic: "sensors/+/status" }))).toBe("mqtt://b.test:1883 sensors/+/status");
    expect(mqttType.target(settings({ protocol: "wss", host: "::1", port: 443, topic: "t" }))).toBe("wss://[::1]:443/mqtt t");
  });

  test("each bad field says what is wrong", () => {
    expect(problem({ host: "b.test" })).toStartWith("Topic is required");
    expect(problem({ topic: "t" })).toStartWith("Host must be");
    expect(problem({ host: "b.test", topic: "t", protocol: "amqp" })).toBe("Protocol must be one of mqtt, mqtts, ws, wss");
    expect(problem({ host: "b.test", topic: "t", port: 0 })).toBe("Port must be a whole number from 1 to 65535");
    expect(problem({ host: "b.test", topic: "t", path: "mqtt" })).toStartWith("The path starts with /");
    expect(problem({ host: "b.test", topic: "t", password: "x".repeat(1025) })).toBe("The password must be at most 1024 characters");
    expect(problem({ host: "b.test", topic: "t", jsonPath: "$".repeat(501) })).toBe("The JSON assertion must be at most 500 characters");
  });

  test("normalise: the host in its usual form; a bad JSON assertion, a bad host and a metadata address refused", () => {
    expect(mqttType.normalise!(settings({ host: " Broker.Example.com " }), ALLOW_PRIVATE).host).toBe("broker.example.com");
    expect(mqttType.normalise!(settings({ jsonPath: " $.ok " }), ALLOW_PRIVATE).jsonPath).toBe("$.ok");
    expect(codeOf({ jsonPath: "$.status ==" })).toBe("INVALID_JSON_PATH");
    expect(codeOf({ host: "mqtt://b.test" })).toBe("INVALID_HOST");
    expect(codeOf({ host: "169.254.169.254" })).toBe("TARGET_FORBIDDEN");
  });
});
