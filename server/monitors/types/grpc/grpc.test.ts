import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { FormatRegistry, type Static } from "@sinclair/typebox";
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
// Registered by settings-adapter.ts where the app validates; Value.Errors needs it here.
if (!FormatRegistry.Has("textarea")) FormatRegistry.Set("textarea", () => true);
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

/** The unary service, served from the .proto file by proto-loader (the library's own path, not the check's). */
const SHOP_PROTO = `syntax = "proto3";
package shop.v1;
import "google/protobuf/empty.proto";
service Orders {
  rpc Get(GetRequest) returns (Order);
  rpc Hang(GetRequest) returns (Order);
  rpc Ping(google.protobuf.Empty) returns (google.protobuf.Empty);
  rpc Missing(GetRequest) returns (Order);
  rpc Watch(GetRequest) returns (stream Order);
}
enum State { PENDING = 0; SHIPPED = 1; }
message GetRequest { string order_id = 1; int64 limit = 2; State state = 3; repeated string tags = 4; }
message Order { string order_id = 1; State state = 2; int64 total = 3; }
`;
const protoDir = mkdtempSync(join(tmpdir(), "vigil-grpc-"));
writeFileSync(join(protoDir, "shop.proto"), SHOP_PROTO);
const shop = grpc.loadPackageDefinition(loadSync(join(protoDir, "shop.proto"), { keepCase: true, longs: String, enums: String })) as unknown as { shop: { v1: { Orders: grpc.ServiceClientConstructor } } };
rmSync(protoDir, { recursive: true });
type Order = { order_id: string; limit: string; tags: string[] };
let lastOrder: Order | null = null;
let lastTeam: unknown = null;
let hangsCancelled = 0;
const { Missing: _unimplemented, ...ordersService } = shop.shop.v1.Orders.service;
const shopPort = await serve((s) =>
  s.addService(ordersService, {
    Get(call: grpc.ServerUnaryCall<Order, unknown>, callback: grpc.sendUnaryData<unknown>) {
      lastOrder = call.request;
      lastTeam = call.metadata.get("x-team")[0];
      if (call.request.order_id === "gone") return callback({ code: grpc.status.NOT_FOUND, details: "no order gone" });
      callback(null, { order_id: call.request.order_id, state: "SHIPPED", total: Number(call.request.limit) * 2 });
    },
    Hang(call: grpc.ServerUnaryCall<Order, unknown>) {
      call.on("cancelled", () => hangsCancelled++);
    },
    Ping(_call: unknown, callback: grpc.sendUnaryData<unknown>) {
      callback(null, {});
    },
  }),
);
/** A TCP relay to the unary server, counting its connections (to prove a check closes its channel). */
const relayed = new Set<Socket>();
let relayAccepted = 0;
const relay = createServer((socket) => {
  relayAccepted++;
  relayed.add(socket);
  const upstream = connect(shopPort, "127.0.0.1");
  socket.pipe(upstream).pipe(socket);
  const close = () => {
    relayed.delete(socket);
    socket.destroy();
    upstream.destroy();
  };
  socket.on("close", close).on("error", close);
  upstream.on("close", close).on("error", close);
});
await new Promise<void>((ok) => relay.listen(0, "127.0.0.1", ok));
const relayPort = (relay.address() as { port: number }).port;

afterAll(() => {
  for (const s of servers) s.forceShutdown();
  mute.close();
  relay.close();
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

const unary = (over: Partial<Settings>): Settings => settings({ port: shopPort, mode: "unary", proto: SHOP_PROTO, method: "shop.v1.Orders/Get", request: '{"order_id":"A1","limit":21}', ...over });

describe("grpc unary call against a real grpc-js server", () => {
  test("an OK reply is up; the request reaches the server as written, with the metadata", async () => {
    const r = await grpcType.check(unary({ metadata: [{ name: "x-team", value: "ops" }] }), ctx());
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    expect(lastOrder).toMatchObject({ order_id: "A1", limit: "21" });
    expect(lastTeam).toBe("ops");
    // protobufjs's own spelling of a field is taken too; a method of google.protobuf.Empty needs no request.
    expect(await grpcType.check(unary({ request: '{"orderId":"B2","tags":["x"],"state":"SHIPPED"}' }), ctx())).toMatchObject({ up: true });
    expect(lastOrder).toMatchObject({ order_id: "B2", tags: ["x"] });
    expect(await grpcType.check(unary({ method: "shop.v1.Orders/Ping", request: "{}" }), ctx())).toMatchObject({ up: true });
  });

  test("the keyword is looked for in the reply's JSON; inverted, it must not be there", async () => {
    // The reply reads {"orderId":"A1","state":"SHIPPED","total":"42"}: protobuf's JSON mapping.
    expect(await grpcType.check(unary({ keyword: '"state":"SHIPPED"' }), ctx())).toMatchObject({ up: true });
    expect(await grpcType.check(unary({ keyword: '"total":"42"' }), ctx())).toMatchObject({ up: true });
    const missing = await grpcType.check(unary({ keyword: "PENDING" }), ctx());
    expect(missing).toMatchObject({ up: false, responseTime: null, error: 'keyword "PENDING" not found' });
    expect(parseCheckError(missing.error!)).toEqual({ code: "KEYWORD_MISSING", params: { keyword: '"PENDING"' } });
    expect(await grpcType.check(unary({ keyword: "PENDING", keywordInvert: true }), ctx())).toMatchObject({ up: true });
    expect(await grpcType.check(unary({ keyword: "SHIPPED", keywordInvert: true }), ctx())).toMatchObject({ up: false, error: 'keyword "SHIPPED" found' });
  });

  test("an error status is down with gRPC's status and details", async () => {
    expect((await grpcType.check(unary({ request: '{"order_id":"gone"}' }), ctx())).error).toBe("gRPC error: NOT_FOUND: no order gone");
    expect((await grpcType.check(unary({ method: "shop.v1.Orders/Missing" }), ctx())).error).toStartWith("gRPC error: UNIMPLEMENTED");
  });

  test("a method that never answers: the timeout sentence within the timeout, the call cancelled and the channel closed", async () => {
    const before = { accepted: relayAccepted, cancelled: hangsCancelled };
    const started = performance.now();
    const r = await grpcType.check(unary({ port: relayPort, method: "shop.v1.Orders/Hang" }), ctx(400));
    const took = performance.now() - started;
    expect(r).toMatchObject({ up: false, error: "timeout after 0.4 s" });
    expect(took).toBeGreaterThanOrEqual(380);
    expect(took).toBeLessThan(900);
    expect(relayAccepted).toBe(before.accepted + 1);
    await Bun.sleep(100);
    expect(relayed.size).toBe(0);
    expect(hangsCancelled).toBe(before.cancelled + 1);
  });

  test("the address policy refuses a private target before connecting", async () => {
    const before = relayAccepted;
    expect((await grpcType.check(unary({ port: relayPort }), ctx(3000, { allowPrivate: false }))).error).toStartWith("Target refused:");
    expect(relayAccepted).toBe(before);
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
    // Settings saved before the unary call existed are health checks.
    expect(Value.Default(grpcSettings, { host: "api.test", port: 50051, service: "", tls: false, ignoreTls: false, metadata: [] })).toEqual({
      host: "api.test", port: 50051, mode: "health", service: "", proto: "", method: "", request: "{}", keyword: "", keywordInvert: false, tls: false, ignoreTls: false, metadata: [],
    });
    expect(grpcType.target(settings({ host: "api.test", port: 50051 }))).toBe("api.test:50051");
    expect(grpcType.target(settings({ host: "::1", port: 50051, service: "shop.Cart" }))).toBe("[::1]:50051/shop.Cart");
    expect(grpcType.target(unary({ host: "api.test", port: 50051 }))).toBe("api.test:50051/shop.v1.Orders/Get");
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
    expect(problem({ host: "api.test", port: 1, mode: "stream" })).toBe("Mode must be health or unary");
    expect(problem({ host: "api.test", port: 1, method: "shop.v1.Orders.Get" })).toStartWith("The method is package.Service/Method");
    expect(problem({ host: "api.test", port: 1, proto: "x".repeat(64 * 1024 + 1) })).toBe("The .proto must be text of at most 64 KB");
    expect(problem({ host: "api.test", port: 1, keywordInvert: "no" })).toBe("keywordInvert must be true or false");
  });

  test("normalise: the host in its usual form; bad hosts, metadata addresses and TLS to an address refused", () => {
    expect(grpcType.normalise!(settings({ host: " API.Example.com. " }), ALLOW_PRIVATE).host).toBe("api.example.com");
    expect(grpcType.normalise!(settings({ host: "127.1" }), ALLOW_PRIVATE).host).toBe("127.0.0.1");
    expect(codeOf({ host: "grpc://api:50051" })).toBe("INVALID_HOST");
    expect(codeOf({ host: "169.254.169.254" })).toBe("TARGET_FORBIDDEN");
    expect(codeOf({ host: "10.0.0.5", tls: true })).toBe("TLS_NEEDS_NAME");
  });

  test("normalise: a unary call's proto, method and request are checked against each other, with the reason", () => {
    const refusal = (over: Partial<Settings>) => {
      try {
        grpcType.normalise!(unary(over), ALLOW_PRIVATE);
      } catch (e) {
        return `${(e as HttpError).code}: ${(e as HttpError).message}`;
      }
      return null;
    };
    expect(refusal({})).toBeNull();
    expect(refusal({ method: "shop.v1.Orders/Ping", request: "" })).toBeNull();
    // A health monitor keeps whatever unary fields it has, unchecked.
    expect(refusal({ mode: "health", proto: "not a proto" })).toBeNull();
    expect(refusal({ proto: "" })).toBe("INVALID_PROTO: A unary call needs the service's .proto");
    expect(refusal({ proto: "service X { rpc" })).toStartWith("INVALID_PROTO: The .proto does not parse: ");
    expect(refusal({ proto: 'syntax = "proto3"; message A { Missing m = 1; }', method: "A/B" })).toStartWith("INVALID_PROTO: The .proto does not parse: no such Type or Enum 'Missing'");
    expect(refusal({ proto: SHOP_PROTO.replace("google/protobuf/empty.proto", "other/common.proto") })).toStartWith('INVALID_PROTO: The .proto imports "other/common.proto"');
    expect(refusal({ method: "" })).toBe("INVALID_METHOD: A unary call needs its method: package.Service/Method");
    expect(refusal({ method: "shop.v1.Orders/Nope" })).toBe("INVALID_METHOD: The .proto has no method shop.v1.Orders/Nope (write it as package.Service/Method)");
    expect(refusal({ method: "shop.v1.Order/Get" })).toStartWith("INVALID_METHOD: The .proto has no method");
    expect(refusal({ method: "shop.v1.Orders/Watch" })).toBe("INVALID_METHOD: shop.v1.Orders/Watch streams: only a unary method (one request, one reply) can be called");
    expect(refusal({ request: "{order_id:1}" })).toStartWith("INVALID_REQUEST: The request is not JSON: ");
    expect(refusal({ request: "[1]" })).toBe("INVALID_REQUEST: The request must be a JSON object (a GetRequest message)");
    expect(refusal({ request: '{"id":"A1"}' })).toBe("INVALID_REQUEST: The request's id: GetRequest has no such field (it has orderId, limit, state, tags)");
    expect(refusal({ request: '{"order_id":1}' })).toBe("INVALID_REQUEST: The request's order_id must be a string");
    expect(refusal({ request: '{"limit":"ten"}' })).toStartWith("INVALID_REQUEST: The request's limit must be a whole number");
    expect(refusal({ request: '{"state":"LOST"}' })).toBe("INVALID_REQUEST: The request's state must be one of PENDING, SHIPPED");
    expect(refusal({ request: '{"tags":"x"}' })).toBe("INVALID_REQUEST: The request's tags must be a JSON array");
  });
});
