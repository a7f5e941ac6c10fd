import { afterAll, describe, expect, test } from "bun:test";
import { createServer, type Socket } from "node:net";
import * as grpc from "@grpc/grpc-js";
import type { Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { HealthImplementation, service as healthService } from "grpc-health-check";
import { HttpError } from "../../../http/http-error";
import { ALLOW_PRIVATE, type Resolve, type TargetPolicy } from "../../../net/targets";
import { parseCheckError } from "../../check-errors";
import { closedPort, selfSignedCert } from "../../test-target";
import type { SettingsCheckContext } from "../settings-type";
import { grpcType } from "./grpc";
import { grpcSettings } from "./settings";

type Settings = Static<typeof grpcSettings>;
const settings = (over: Partial<Settings>): Settings => ({ ...(Value.Default(grpcSettings, { host: "127.0.0.1", port: 1 }) as Settings), ...over });
/** Names the tests use, resolved without DNS (localhost's order of ::1 and 127.0.0.1 differs between machines). */
const resolve: Resolve = async (host) => (host === "localhost" || host === "grpc.test" ? ["127.0.0.1"] : Promise.reject(new Error("ENOTFOUND")));
const ctx = (timeoutMs = 3000, policy: TargetPolicy = ALLOW_PRIVATE): SettingsCheckContext => ({
  timeoutMs,
  signal: AbortSignal.timeout(timeoutMs),
  policy,
  resolve,
  now: Date.now,
});

const servers: grpc.Server[] = [];
async function serve(setup: (server: grpc.Server) => void, creds = grpc.ServerCredentials.createInsecure()): Promise<number> {
  const server = new grpc.Server();
  setup(server);
  servers.push(server);
  return new Promise((resolve, reject) => server.bindAsync("127.0.0.1:0", creds, (e, port) => (e ? reject(e) : resolve(port))));
}

/** The health service as grpc-health-check implements it: the server overall serving, some services not. */
const healthPort = await serve((s) => new HealthImplementation({ "": "SERVING", "shop.Cart": "SERVING", "shop.Billing": "NOT_SERVING", "shop.Odd": "UNKNOWN" }).addToServer(s));
/** A health service behind a token: the Authorization metadata must be "Bearer good-token". */
let seenAuthority = "";
const authPort = await serve((s) =>
  s.addService(healthService as unknown as grpc.ServiceDefinition, {
    Check(call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) {
      seenAuthority = String(call.metadata.get(":authority")[0] ?? call.getHost());
      if (call.metadata.get("authorization")[0] !== "Bearer good-token") return callback({ code: grpc.status.UNAUTHENTICATED, details: "bad token" });
      callback(null, { status: "SERVING" });
    },
  }),
);
/** A gRPC server without the health service. */
const bareServerPort = await serve(() => {});
const cert = selfSignedCert();
const tlsPort = cert
  ? await serve(
      (s) => new HealthImplementation({ "": "SERVING" }).addToServer(s),
      grpc.ServerCredentials.createSsl(null, [{ cert_chain: Buffer.from(cert.cert), private_key: Buffer.from(cert.key) }]),
    )
  : 0;

/** Accepts connections and never answers (no HTTP/2 settings); counts the sockets still open. */
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

afterAll(() => {
  for (const s of servers) s.forceShutdown();
  mute.close();
});

describe("grpc health check against a real grpc-js server", () => {
  test("SERVING for the whole server and for a named service is up", async () => {
    const r = await grpcType.check(settings({ port: healthPort }), ctx());
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    expect(r.responseTime).toBeLessThan(2000);
    expect(await grpcType.check(settings({ host: "grpc.test", port: healthPort, service: "shop.Cart" }), ctx())).toMatchObject({ up: true });
  });

  test("NOT_SERVING, UNKNOWN and a service the server does not know are down, by name", async () => {
    expect(await grpcType.check(settings({ port: healthPort, service: "shop.Billing" }), ctx())).toMatchObject({ up: false, responseTime: null, error: "gRPC health: NOT_SERVING" });
    expect((await grpcType.check(settings({ port: healthPort, service: "shop.Odd" }), ctx())).error).toBe("gRPC health: UNKNOWN");
    const r = await grpcType.check(settings({ port: healthPort, service: "shop.Nope" }), ctx());
    expect(r.error).toBe("gRPC health: SERVICE_UNKNOWN");
    expect(parseCheckError(r.error!)).toEqual({ code: "GRPC_STATUS", params: { status: "SERVICE_UNKNOWN" } });
  });

  test("metadata reaches the server; a wrong token is authentication failed; the name is the authority", async () => {
    const good = await grpcType.check(settings({ host: "grpc.test", port: authPort, metadata: [{ name: "authorization", value: "Bearer good-token" }] }), ctx());
    expect(good).toMatchObject({ up: true });
    expect(seenAuthority).toBe(`grpc.test:${authPort}`);
    const bad = await grpcType.check(settings({ port: authPort, metadata: [{ name: "authorization", value: "Bearer wrong-token" }] }), ctx());
    expect(bad).toMatchObject({ up: false, error: "authentication failed" });
    expect(bad.error).not.toContain("wrong-token");
  });

  test("a server without the health service is down with gRPC's status", async () => {
    const r = await grpcType.check(settings({ port: bareServerPort }), ctx());
    expect(r.up).toBe(false);
    expect(r.error).toStartWith("gRPC error: UNIMPLEMENTED");
  });

  test("nothing listening: connection refused", async () => {
    expect(await grpcType.check(settings({ port: closedPort() }), ctx())).toMatchObject({ up: false, error: "connection refused" });
  });

  test("a server that never answers: the timeout sentence within the timeout, and the socket closed", async () => {
    const before = accepted;
    const started = performance.now();
    const r = await grpcType.check(settings({ port: mutePort }), ctx(400));
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
    const pending = grpcType.check(settings({ port: mutePort }), { ...ctx(), signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toMatchObject({ up: false, error: "check cancelled" });
    await Bun.sleep(100);
    expect(held.size).toBe(0);
  });

  test("the address policy refuses a private target before connecting", async () => {
    const before = accepted;
    const strict = { allowPrivate: false };
    expect((await grpcType.check(settings({ port: mutePort }), ctx(3000, strict))).error).toStartWith("Target refused:");
    expect((await grpcType.check(settings({ host: "grpc.test", port: mutePort }), ctx(3000, strict))).error).toStartWith("Target refused: grpc.test resolves to");
    expect(accepted).toBe(before);
  });

  test.skipIf(!cert)("TLS: a self-signed certificate is refused unless TLS errors are ignored", async () => {
    const refused = await grpcType.check(settings({ host: "localhost", port: tlsPort, tls: true }), ctx());
    expect(refused).toMatchObject({ up: false, error: "TLS error: self-signed certificate" });
    expect(await grpcType.check(settings({ host: "localhost", port: tlsPort, tls: true, ignoreTls: true }), ctx())).toMatchObject({ up: true });
    // Plain text to a TLS port is not gRPC.
    expect((await grpcType.check(settings({ port: tlsPort }), ctx(1000))).up).toBe(false);
  });
});

describe("grpc settings", () => {
  const problem = (value: unknown) => {
    const first = Value.Errors(grpcSettings, Value.Default(grpcSettings, structuredClone(value))).First();
    return first ? (first.schema as { error?: string }).error : null;
  };
  const codeOf = (over: Partial<Settings>) => {
    try {
      grpcType.normalise!(settings(over), ALLOW_PRIVATE);
    } catch (e) {
      return (e as HttpError).code;
    }
    return null;
  };

  test("defaults fill what is left out; the target reads host:port/service", () => {
    expect(Value.Default(grpcSettings, { host: "api.test", port: 50051 })).toEqual({ host: "api.test", port: 50051, service: "", tls: false, ignoreTls: false, metadata: [] });
    expect(grpcType.target(settings({ host: "api.test", port: 50051 }))).toBe("api.test:50051");
    expect(grpcType.target(settings({ host: "::1", port: 50051, service: "shop.Cart" }))).toBe("[::1]:50051/shop.Cart");
  });

  test("each bad field says what is wrong", () => {
    expect(problem({ port: 50051 })).toStartWith("Host must be");
    expect(problem({ host: "api.test" })).toBe("Port is required: a whole number from 1 to 65535");
    expect(problem({ host: "api.test", port: 70000 })).toBe("Port is required: a whole number from 1 to 65535");
    expect(problem({ host: "api.test", port: 1, service: "has space" })).toStartWith("The service is a name without spaces");
    expect(problem({ host: "api.test", port: 1, tls: "yes" })).toBe("tls must be true or false");
    expect(problem({ host: "api.test", port: 1, metadata: [{ name: "Authorization", value: "x" }] })).toStartWith("Metadata keys may only");
    expect(problem({ host: "api.test", port: 1, metadata: [{ name: "x", value: "a\nb" }] })).toStartWith("Metadata values must be");
    expect(problem({ host: "api.test", port: 1, metadata: Array.from({ length: 21 }, () => ({ name: "x", value: "1" })) })).toBe("At most 20 metadata entries");
  });

  test("normalise: the host in its usual form; bad hosts, metadata addresses and TLS to an address refused", () => {
    expect(grpcType.normalise!(settings({ host: " API.Example.com. " }), ALLOW_PRIVATE).host).toBe("api.example.com");
    expect(grpcType.normalise!(settings({ host: "127.1" }), ALLOW_PRIVATE).host).toBe("127.0.0.1");
    expect(codeOf({ host: "grpc://api:50051" })).toBe("INVALID_HOST");
    expect(codeOf({ host: "169.254.169.254" })).toBe("TARGET_FORBIDDEN");
    expect(codeOf({ host: "10.0.0.5", tls: true })).toBe("TLS_NEEDS_NAME");
  });
});
