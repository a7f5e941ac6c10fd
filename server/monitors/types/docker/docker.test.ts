import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FormatRegistry } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { spawnSync } from "bun";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpError } from "../../../http/http-error";
import { ALLOW_PRIVATE, defaultResolve, type TargetPolicy } from "../../../net/targets";
import { closedPort } from "../../test-target";
import type { SettingsCheckContext } from "../settings-type";
import { dockerType, type DockerSettings } from "./docker";
import { hasPodman, RUN_OPTIONS, startPodman, type Podman } from "./podman-support";
import { dockerSettings } from "./settings";

// The docker check against a real Podman engine (its Docker-compatible API on a Unix socket), reached directly and
// through a TLS front in the test that asks for a client certificate, as `dockerd --tlsverify` does.

const dir = mkdtempSync(join(tmpdir(), "vigil-docker-check-"));
const ctx = (timeoutMs = 5_000, policy: TargetPolicy = ALLOW_PRIVATE, resolve = defaultResolve): SettingsCheckContext => ({
  timeoutMs, signal: AbortSignal.timeout(timeoutMs), policy, resolve, now: Date.now,
});
const settings = (over: Partial<DockerSettings>) => Value.Default(dockerSettings, { container: "web", ...over }) as DockerSettings;
// "textarea" only tells the form how to show a field; the lead's validation registers it the same way.
if (!FormatRegistry.Has("textarea")) FormatRegistry.Set("textarea", () => true);
const podmanMissing = !hasPodman() && !process.env.CI;

/** A CA, a server certificate for docker.test, a client certificate (openssl), as PEM text. */
function certificates() {
  const sh = (cmd: string) => spawnSync(["sh", "-c", cmd], { cwd: dir, stderr: "pipe" });
  const key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
  sh(`openssl req -x509 ${key} -keyout ca.key -out ca.pem -days 2 -subj /CN=vigil-test-ca`);
  for (const [name, ext] of [["server", "subjectAltName=DNS:docker.test"], ["client", "extendedKeyUsage=clientAuth"]]) {
    sh(`openssl req ${key} -keyout ${name}.key -out ${name}.csr -subj /CN=${name} && printf '${ext}\\n' > ${name}.ext && ` +
      `openssl x509 -req -in ${name}.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out ${name}.pem -days 2 -extfile ${name}.ext`);
  }
  const read = (f: string) => readFileSync(join(dir, f), "utf8");
  return { ca: read("ca.pem"), serverCert: read("server.pem"), serverKey: read("server.key"), cert: read("client.pem"), key: read("client.key") };
}

let podman: Podman;
let pem: ReturnType<typeof certificates>;
let front: ReturnType<typeof Bun.serve>;
let plain: ReturnType<typeof Bun.serve>;
let frontRequests = 0;
/** An "engine" that reads requests and never answers; it records whether each connection was closed. */
const hung: { closed: boolean }[] = [];
const hangingSocket = join(dir, "hanging.sock");
const hanging = createServer((s) => {
  const seen = { closed: false };
  hung.push(seen);
  s.on("close", () => (seen.closed = true)).resume();
});

beforeAll(async () => {
  await new Promise<void>((r) => hanging.listen(hangingSocket, r));
  if (podmanMissing) return;
  pem = certificates();
  podman = await startPodman();
  const run = (name: string, ...args: string[]) => podman.run("run", "-d", ...RUN_OPTIONS, "--name", name, ...args, "vigil-test:1");
  run("web");
  for (const [name, cmd] of [["healthy", "/bin/true"], ["sick", "/bin/false"], ["booting", "/bin/true"]]) {
    run(name!, "--health-cmd", cmd!, "--health-interval", "0", "--health-retries", "1");
  }
  podman.run("healthcheck", "run", "healthy");
  try {
    podman.run("healthcheck", "run", "sick");
  } catch {
    // An unhealthy container's check exits 1: that is the point.
  }
  podman.run("run", ...RUN_OPTIONS, "--name", "finished", "vigil-test:1", "/bin/true");
  podman.run("create", ...RUN_OPTIONS, "--name", "fresh", "vigil-test:1");
  run("frozen");
  podman.run("pause", "frozen");
  // The TLS front: a client certificate signed by the CA is required; requests go on to the engine. And a plain one.
  const toEngine = (req: Request) => {
    frontRequests++;
    const url = new URL(req.url);
    return fetch(`http://localhost${url.pathname}${url.search}`, { unix: podman.socket } as RequestInit);
  };
  const tls = { cert: pem.serverCert, key: pem.serverKey, ca: pem.ca, requestCert: true, rejectUnauthorized: true };
  front = Bun.serve({ hostname: "127.0.0.1", port: 0, tls, fetch: toEngine });
  plain = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: toEngine });
}, 120_000);

afterAll(async () => {
  front?.stop(true);
  plain?.stop(true);
  await podman?.stop();
  hanging.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(podmanMissing)("a real Podman engine over its socket", () => {
  const check = (container: string, timeoutMs?: number) => dockerType.check(settings({ container, socketPath: podman.socket }), ctx(timeoutMs));

  test("a running container is up, with the engine's response time", async () => {
    const r = await check("web");
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    expect(r.responseTime).toBeLessThan(5_000);
  });

  test("by ID (its first characters) as well as by name", async () => {
    const id = podman.run("inspect", "--format", "{{.Id}}", "web").slice(0, 12);
    expect(await check(id)).toMatchObject({ up: true });
  });

  test("healthy is up, and a healthcheck still starting counts as up; unhealthy is down", async () => {
    expect(await check("healthy")).toMatchObject({ up: true });
    expect(await check("booting")).toMatchObject({ up: true });
    expect(await check("sick")).toMatchObject({ up: false, error: "container sick is unhealthy" });
  });

  test("exited, created and paused containers are down, in the engine's words", async () => {
    expect(await check("finished")).toMatchObject({ up: false, error: "container finished is exited" });
    expect(await check("fresh")).toMatchObject({ up: false, error: "container fresh is created" });
    expect(await check("frozen")).toMatchObject({ up: false, error: "container frozen is paused" });
  });

  test("a container the engine does not know is down: not found", async () => {
    expect(await check("nope")).toMatchObject({ up: false, error: "container nope not found" });
  });
});

describe.skipIf(podmanMissing)("a remote engine over TCP with TLS (the real engine behind a TLS front)", () => {
  const tcp = (over: Partial<DockerSettings> = {}) => settings({ endpoint: "tcp", host: "docker.test", port: front.port, ca: pem.ca, cert: pem.cert, key: pem.key, ...over });
  const resolveTest = async (host: string) => (host === "docker.test" ? ["127.0.0.1"] : Promise.reject(new Error("ENOTFOUND")));

  test("with the client certificate: up; the name is resolved, the address connected to, the certificate checked against the name", async () => {
    expect(await dockerType.check(tcp(), ctx(5_000, ALLOW_PRIVATE, resolveTest))).toMatchObject({ up: true, error: null });
    expect(await dockerType.check(tcp({ container: "sick" }), ctx(5_000, ALLOW_PRIVATE, resolveTest))).toMatchObject({ error: "container sick is unhealthy" });
  });

  test("without TLS (an engine on 2375)", async () => {
    const r = await dockerType.check(settings({ endpoint: "tcp", host: "127.0.0.1", port: plain.port, tls: false, container: "finished" }), ctx());
    expect(r).toMatchObject({ up: false, error: "container finished is exited" });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
  });

  test("TLS failures: no client certificate, an unknown CA, a certificate for another name", async () => {
    const r1 = await dockerType.check(tcp({ cert: "", key: "" }), ctx(5_000, ALLOW_PRIVATE, resolveTest));
    expect(r1).toMatchObject({ up: false, error: "TLS error: handshake failed" });
    expect((await dockerType.check(tcp({ ca: "" }), ctx(5_000, ALLOW_PRIVATE, resolveTest))).error).toBe("TLS error: self-signed certificate");
    expect((await dockerType.check(tcp({ host: "127.0.0.1" }), ctx(5_000, ALLOW_PRIVATE, resolveTest))).error).toBe("TLS error: certificate does not match the host name");
  });

  test("a broken or foreign client key is named, never shown, and nothing is sent", async () => {
    const before = frontRequests;
    const key = pem.key.replace(/\n(.{20})/, "\nXX$1"); // a broken key that still reads as PEM
    const r = await dockerType.check(tcp({ key }), ctx(5_000, ALLOW_PRIVATE, resolveTest));
    expect(r).toMatchObject({ up: false, error: "Docker error: the client key is not a valid PEM private key" });
    const foreign = await dockerType.check(tcp({ key: pem.serverKey }), ctx(5_000, ALLOW_PRIVATE, resolveTest));
    expect(foreign.error).toBe("Docker error: the client key does not belong to the client certificate");
    expect(frontRequests).toBe(before);
    for (const line of key.split("\n").filter((l) => l.length > 8 && !l.startsWith("-----"))) expect(r.error).not.toContain(line);
  });

  test("the address policy refuses a private engine (also behind a name) before connecting", async () => {
    const before = frontRequests;
    const strict = { allowPrivate: false };
    expect((await dockerType.check(tcp(), ctx(5_000, strict, resolveTest))).error).toStartWith("Target refused: docker.test resolves to 127.0.0.1");
    expect((await dockerType.check(tcp({ host: "127.0.0.1" }), ctx(5_000, strict))).error).toStartWith("Target refused: 127.0.0.1 is a private");
    expect((await dockerType.check(tcp({ host: "169.254.169.254" }), ctx())).error).toStartWith("Target refused:");
    expect(frontRequests).toBe(before);
  });
});

describe("when the engine cannot be asked", () => {
  test("no socket at the path, a socket nobody listens on, a closed TCP port", async () => {
    expect((await dockerType.check(settings({ socketPath: join(dir, "none.sock") }), ctx())).error).toBe(`Docker error: no socket at ${join(dir, "none.sock")}`);
    writeFileSync(join(dir, "plain-file"), "");
    expect((await dockerType.check(settings({ socketPath: join(dir, "plain-file") }), ctx())).error).toBe("connection refused");
    const r = await dockerType.check(settings({ endpoint: "tcp", host: "127.0.0.1", port: closedPort(), tls: false }), ctx());
    expect(r).toMatchObject({ up: false, responseTime: null, error: "connection refused" });
  });

  test("an engine that accepts and never answers: timeout, and the connection is closed", async () => {
    const started = performance.now();
    const r = await dockerType.check(settings({ socketPath: hangingSocket }), ctx(300));
    expect(r).toMatchObject({ up: false, responseTime: null, error: "timeout after 0.3 s" });
    expect(performance.now() - started).toBeLessThan(1_500);
    await Bun.sleep(50);
    expect(hung.length).toBe(1);
    expect(hung[0]!.closed).toBe(true);
  });

  test("an instance that refuses local targets refuses the engine's socket, without touching it", async () => {
    const r = await dockerType.check(settings({ socketPath: hangingSocket }), ctx(5_000, { allowPrivate: false }));
    expect(r.error).toBe("Target refused: the engine's Unix socket is local, which this instance does not allow as a target");
  });
});

describe("docker settings", () => {
  const messages = (value: Record<string, unknown>) =>
    [...Value.Errors(dockerSettings, settings(value))].map((e) => (e.schema as { error?: string }).error);
  const codeOf = (s: Partial<DockerSettings>, policy: TargetPolicy = ALLOW_PRIVATE) => {
    try {
      dockerType.normalise!(settings(s), policy);
    } catch (e) {
      return (e as HttpError).code;
    }
    return null;
  };

  test("defaults: the Docker socket; TCP on 2376 with TLS; the key is the one secret", () => {
    expect(settings({})).toMatchObject({ endpoint: "socket", socketPath: "/var/run/docker.sock", port: 2376, tls: true, key: "" });
    expect(messages({})).toEqual([]);
    expect((dockerSettings.properties.key as { secret?: unknown }).secret).toBe(true);
  });

  test("each bad field has its message", () => {
    expect(messages({ container: "" })[0]).toStartWith("Container must be");
    expect(messages({ container: "web; rm -rf /" })[0]).toStartWith("Container must be");
    expect(messages({ endpoint: "ftp" })[0]).toBe("Endpoint must be socket or tcp");
    expect(messages({ socketPath: "docker.sock" })[0]).toStartWith("Socket path must be an absolute path");
    expect(messages({ port: 0 })[0]).toBe("Port must be a whole number from 1 to 65535");
    expect(messages({ key: "not a key" })[0]).toStartWith("Client key must be a PEM block");
    expect(messages({ ca: "-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n" })).toEqual([]);
  });

  test("normalise: a TCP engine needs a host the policy allows, and a certificate with its key; the socket is local", () => {
    expect(codeOf({ endpoint: "tcp", host: "" })).toBe("INVALID_HOST");
    expect(codeOf({ endpoint: "tcp", host: "tcp://docker:2376" })).toBe("INVALID_HOST");
    expect(codeOf({ endpoint: "tcp", host: "169.254.169.254" })).toBe("TARGET_FORBIDDEN");
    expect(codeOf({ endpoint: "tcp", host: "10.0.0.5" }, { allowPrivate: false })).toBe("TARGET_FORBIDDEN");
    expect(codeOf({ endpoint: "tcp", host: "docker.example.com", cert: "-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----" })).toBe("INVALID_CLIENT_CERT");
    expect(codeOf({ endpoint: "tcp", host: "docker.example.com", cert: "-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----", key: "-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----" })).toBe("INVALID_CLIENT_CERT");
    expect(codeOf({ endpoint: "socket" }, { allowPrivate: false })).toBe("TARGET_FORBIDDEN");
    expect(dockerType.normalise!(settings({ endpoint: "tcp", host: " Docker.Example.com. " }), ALLOW_PRIVATE).host).toBe("docker.example.com");
  });

  test("the target names the container, and the engine when remote", () => {
    expect(dockerType.target(settings({}))).toBe("web");
    expect(dockerType.target(settings({ endpoint: "tcp", host: "::1", port: 2376 }))).toBe("web @ [::1]:2376");
  });
});
