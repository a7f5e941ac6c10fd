import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Socket } from "node:net";
import { FormatRegistry, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { HttpError } from "../../../http/http-error";
import { ALLOW_PRIVATE, type Resolve, type TargetPolicy } from "../../../net/targets";
import { parseCheckError } from "../../check-errors";
import { closedPort, selfSignedCert } from "../../test-target";
import type { SettingsCheckContext } from "../settings-type";
import { websocketSettings } from "./settings";
import { websocketType } from "./websocket";

// The form's multi-line marker is not a string format TypeBox knows; the lead's validation registers it the same way.
if (!FormatRegistry.Has("textarea")) FormatRegistry.Set("textarea", () => true);

type Settings = Static<typeof websocketSettings>;
const settings = (over: Partial<Settings>): Settings => ({ ...Value.Default(websocketSettings, {}) as Settings, ...over });
/** The name the tests use, resolved without DNS. */
const resolve: Resolve = async (host) => (host === "ws.test" ? ["127.0.0.1"] : Promise.reject(new Error("ENOTFOUND")));
const ctx = (timeoutMs = 3000, policy: TargetPolicy = ALLOW_PRIVATE): SettingsCheckContext => ({
  timeoutMs,
  signal: AbortSignal.timeout(timeoutMs),
  policy,
  resolve,
  now: Date.now,
});

/** What the server saw of each upgrade request. */
const upgrades: { path: string; host: string | null; protocol: string | null; token: string | null }[] = [];
/** The test server: /forbidden answers 403, /greet speaks first, /close closes at once, /silent never answers. */
function serve(tls?: { cert: string; key: string }) {
  return Bun.serve<string>({
    hostname: "127.0.0.1",
    port: 0,
    ...(tls ? { tls } : {}),
    fetch(req, server) {
      const url = new URL(req.url);
      const protocol = req.headers.get("sec-websocket-protocol");
      upgrades.push({ path: url.pathname, host: req.headers.get("host"), protocol, token: req.headers.get("x-token") });
      if (url.pathname === "/forbidden") return new Response("no", { status: 403 });
      const headers = protocol ? { "sec-websocket-protocol": protocol.split(",")[0]!.trim() } : undefined;
      if (server.upgrade(req, { data: url.pathname, headers })) return;
      return new Response("not a websocket", { status: 400 });
    },
    websocket: {
      open(ws) {
        if (ws.data === "/greet") ws.send("hello from the server");
        if (ws.data === "/close") ws.close(4000, "go away");
      },
      message(ws, message) {
        if (ws.data !== "/silent") ws.send(`echo: ${message}`);
      },
    },
  });
}
const server = serve();
const cert = selfSignedCert();
const tlsServer = cert ? serve(cert) : null;

/** Accepts connections and never answers the upgrade; counts the sockets still open. */
const held = new Set<Socket>();
let accepted = 0;
const mute = createServer((socket) => {
  accepted++;
  held.add(socket);
  socket.resume(); // read the request, so the peer's FIN is seen
  socket.on("close", () => held.delete(socket));
  socket.on("error", () => {});
});
await new Promise<void>((resolve) => mute.listen(0, "127.0.0.1", resolve));
const mutePort = (mute.address() as { port: number }).port;

afterAll(() => {
  server.stop(true);
  tlsServer?.stop(true);
  mute.close();
});

const ws = (path: string) => `ws://127.0.0.1:${server.port}${path}`;

describe("websocket check against a real server", () => {
  test("an upgrade alone is up, with the time it took", async () => {
    const r = await websocketType.check(settings({ url: ws("/plain") }), ctx());
    expect(r).toMatchObject({ up: true, error: null });
    expect(r.responseTime).toBeGreaterThanOrEqual(0);
    expect(r.responseTime).toBeLessThan(2000);
  });

  test("a message sent, the reply holds the keyword; headers and the subprotocol reach the server", async () => {
    const r = await websocketType.check(
      settings({ url: ws("/echo"), message: "ping 42", keyword: "echo: ping 42", subprotocol: "chat.v1", headers: [{ name: "X-Token", value: "abc" }] }),
      ctx(),
    );
    expect(r).toMatchObject({ up: true, error: null });
    expect(upgrades.at(-1)).toEqual({ path: "/echo", host: `127.0.0.1:${server.port}`, protocol: "chat.v1", token: "abc" });
  });

  test("a name is resolved, the address connected to, the name kept in Host", async () => {
    const r = await websocketType.check(settings({ url: `ws://ws.test:${server.port}/echo`, message: "x", keyword: "echo" }), ctx());
    expect(r).toMatchObject({ up: true });
    expect(upgrades.at(-1)?.host).toBe(`ws.test:${server.port}`);
  });

  test("without a message, the server's first message is asserted", async () => {
    expect(await websocketType.check(settings({ url: ws("/greet"), keyword: "hello" }), ctx())).toMatchObject({ up: true });
    const r = await websocketType.check(settings({ url: ws("/greet"), keyword: "Hello" }), ctx());
    expect(r).toMatchObject({ up: false, responseTime: null, error: 'keyword "Hello" not found' });
  });

  test("a reply without the keyword is down", async () => {
    const r = await websocketType.check(settings({ url: ws("/echo"), message: "ping", keyword: "pong" }), ctx());
    expect(r).toMatchObject({ up: false, error: 'keyword "pong" not found' });
  });

  test("an upgrade answered 403 is refused, with the status", async () => {
    const r = await websocketType.check(settings({ url: ws("/forbidden") }), ctx());
    expect(r).toMatchObject({ up: false, error: "upgrade refused: status 403" });
    expect(parseCheckError(r.error!)).toEqual({ code: "UPGRADE_REFUSED", params: { status: "403" } });
  });

  test("a subprotocol the server does not accept is down", async () => {
    // Bun's server grants the first subprotocol asked for unless told otherwise: this one grants another.
    const other = { "sec-websocket-protocol": "other" };
    const plain = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req, s) => (s.upgrade(req, { headers: other }) ? undefined : new Response("x")), websocket: { message() {} } });
    try {
      const r = await websocketType.check(settings({ url: `ws://127.0.0.1:${plain.port}/`, subprotocol: "mqtt" }), ctx());
      expect(r.up).toBe(false);
      expect(r.error).toStartWith("WebSocket error:");
    } finally {
      plain.stop(true);
    }
  });

  test("a server that grants no subprotocol when one was asked for is down", async () => {
    // (The client refuses it, as RFC 6455 4.1 allows.) Bun's server always grants one; node:http's upgrade event lets
    // the test answer 101 without it.
    const bare = createHttpServer();
    bare.on("upgrade", (req, socket) => {
      const accept = createHash("sha1").update(`${req.headers["sec-websocket-key"]}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest("base64");
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
    try {
      const url = `ws://127.0.0.1:${(bare.address() as { port: number }).port}/`;
      expect(await websocketType.check(settings({ url }), ctx())).toMatchObject({ up: true });
      const r = await websocketType.check(settings({ url, subprotocol: "mqtt" }), ctx());
      expect(r).toMatchObject({ up: false, error: "WebSocket error: Server sent no subprotocol" });
    } finally {
      bare.closeAllConnections();
      bare.close();
    }
  });

  test("a server that closes at once is down with its close code", async () => {
    const r = await websocketType.check(settings({ url: ws("/close"), keyword: "x" }), ctx());
    expect(r).toMatchObject({ up: false, error: "WebSocket error: closed by the server (code 4000: go away) before a message came" });
  });

  test("nothing listening: connection refused", async () => {
    const r = await websocketType.check(settings({ url: `ws://127.0.0.1:${closedPort()}/` }), ctx());
    expect(r).toMatchObject({ up: false, responseTime: null, error: "connection refused" });
  });

  test("an upgrade never answered: the timeout sentence within the timeout, and the socket closed", async () => {
    const before = accepted;
    const started = performance.now();
    const r = await websocketType.check(settings({ url: `ws://127.0.0.1:${mutePort}/` }), ctx(400));
    const took = performance.now() - started;
    expect(r).toMatchObject({ up: false, error: "timeout after 0.4 s" });
    expect(took).toBeGreaterThanOrEqual(380);
    expect(took).toBeLessThan(900);
    expect(accepted).toBe(before + 1);
    await Bun.sleep(100);
    expect(held.size).toBe(0);
  });

  test("an open socket with no message back: no message within the timeout", async () => {
    const started = performance.now();
    const r = await websocketType.check(settings({ url: ws("/silent"), message: "anyone?" }), ctx(400));
    expect(r).toMatchObject({ up: false, error: "no message within 0.4 s" });
    expect(performance.now() - started).toBeLessThan(900);
  });

  test("a stopped check is cancelled", async () => {
    const controller = new AbortController();
    const pending = websocketType.check(settings({ url: `ws://127.0.0.1:${mutePort}/` }), { ...ctx(), signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ up: false, error: "check cancelled" });
    await Bun.sleep(100);
    expect(held.size).toBe(0);
  });

  test("the address policy refuses a private target before connecting", async () => {
    const before = upgrades.length;
    const strict = { allowPrivate: false };
    expect((await websocketType.check(settings({ url: ws("/plain") }), ctx(3000, strict))).error).toStartWith("Target refused:");
    const r = await websocketType.check(settings({ url: `ws://ws.test:${server.port}/plain` }), ctx(3000, strict));
    expect(r.error).toStartWith("Target refused: ws.test resolves to");
    expect(upgrades.length).toBe(before);
  });

  test("a password in the URL never shows in an error or the target", async () => {
    const url = `ws://watcher:s3cret-pw@127.0.0.1:${server.port}/forbidden`;
    const r = await websocketType.check(settings({ url }), ctx());
    expect(r.up).toBe(false);
    expect(r.error).not.toContain("s3cret-pw");
    expect(websocketType.target(settings({ url }))).toBe(`ws://watcher:••••••••@127.0.0.1:${server.port}/forbidden`);
  });

  test.skipIf(!cert)("wss://: a self-signed certificate is refused unless TLS errors are ignored", async () => {
    const url = `wss://127.0.0.1:${tlsServer!.port}/echo`;
    const refused = await websocketType.check(settings({ url }), ctx());
    expect(refused.up).toBe(false);
    expect(refused.error).toBe("TLS error: self-signed certificate");
    expect(await websocketType.check(settings({ url, ignoreTls: true, message: "tls", keyword: "echo: tls" }), ctx())).toMatchObject({ up: true });
  });
});

describe("websocket settings", () => {
  /** The message a user sees for the first problem (the `error` annotation of the failing field). */
  const problem = (value: unknown) => {
    const first = Value.Errors(websocketSettings, Value.Default(websocketSettings, structuredClone(value))).First();
    return first ? (first.schema as { error?: string }).error : null;
  };
  const codeOf = (over: Partial<Settings>) => {
    try {
      websocketType.normalise!(settings(over), ALLOW_PRIVATE);
    } catch (e) {
      return (e as HttpError).code;
    }
    return null;
  };

  test("defaults fill what is left out; a good object passes", () => {
    expect(Value.Default(websocketSettings, { url: "ws://x.test/" })).toEqual({ url: "ws://x.test/", headers: [], subprotocol: "", ignoreTls: false, message: "", keyword: "" });
    expect(problem({ url: "wss://x.test/feed", headers: [{ name: "Origin", value: "https://x.test" }], subprotocol: "graphql-ws" })).toBeNull();
  });

  test("each bad field says what is wrong", () => {
    expect(problem({})).toStartWith("URL must be a ws:// or wss://");
    expect(problem({ url: "http://x.test/" })).toStartWith("URL must be a ws:// or wss://");
    expect(problem({ url: "ws://x.test/", headers: [{ name: "bad name", value: "v" }] })).toStartWith("Header names may only");
    expect(problem({ url: "ws://x.test/", headers: [{ name: "X", value: "a\r\nInjected: 1" }] })).toStartWith("Header values must be");
    expect(problem({ url: "ws://x.test/", headers: Array.from({ length: 21 }, () => ({ name: "X", value: "1" })) })).toBe("At most 20 headers");
    expect(problem({ url: "ws://x.test/", subprotocol: "a b" })).toStartWith("The subprotocol is one name");
    expect(problem({ url: "ws://x.test/", ignoreTls: "yes" })).toBe("ignoreTls must be true or false");
    expect(problem({ url: "ws://x.test/", message: "x".repeat(64 * 1024 + 1) })).toBe("The message must be text of at most 64 KB");
    expect(problem({ url: "ws://x.test/", keyword: "k".repeat(501) })).toBe("The keyword must be at most 500 characters");
  });

  test("normalise: the URL trimmed; a metadata address, a reserved header, a URL without host refused", () => {
    expect(websocketType.normalise!(settings({ url: " ws://x.test/a " }), ALLOW_PRIVATE).url).toBe("ws://x.test/a");
    expect(codeOf({ url: "ws://169.254.169.254/" })).toBe("TARGET_FORBIDDEN");
    expect(codeOf({ url: "ws://x.test/", headers: [{ name: "Sec-WebSocket-Key", value: "x" }] })).toBe("RESERVED_HEADER");
    expect(codeOf({ url: "ws://" })).toBe("INVALID_URL");
    expect(websocketType.normalise!(settings({ url: "ws://127.0.0.1/" }), ALLOW_PRIVATE).url).toBe("ws://127.0.0.1/");
  });
});
