import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { matrix } from "./matrix";
import { closedPort, context, type Fake, MESSAGE, never, NOW, startFake } from "./test-fake";

const TOKEN = "syt_dmlnaWw_cXJ3ZXJ0eXVpb3Bhc2Rm_1a2B3c";
const ROOM = "!OGEhHVWSdvArJzumhm:example.org";
const SEND = `/_matrix/client/v3/rooms/${encodeURIComponent(ROOM)}/send/m.room.message/`;
const SENT = () => Response.json({ event_id: "$YUwRidLecu:example.org" });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = (homeserver = fake!.url): ChannelConfigs["matrix"] => ({ homeserver, accessToken: TOKEN, roomId: ROOM });
const matrixError = (status: number, errcode: string, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  Response.json({ errcode, error, ...extra }, { status, headers });

describe("matrix send", () => {
  test("PUTs an m.text event with the token as Bearer and an HTML body", async () => {
    fake = startFake(SENT);
    expect(await matrix.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("PUT");
    expect(request.path).toStartWith(SEND);
    expect(request.path.slice(SEND.length)).toMatch(new RegExp(`^vigil-${NOW}-[0-9a-f]{12}$`));
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({
      msgtype: "m.text",
      body: `${MESSAGE.title}\nURL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)`,
      format: "org.matrix.custom.html",
      formatted_body:
        "<strong>🔴 Monitor down: Shop &lt;API&gt; &amp; co</strong><br>" +
        "URL: https://shop.example.com/health?a=1&amp;b=2<br>Error: HTTP 503<br>Time: 2026-11-23 11:02:03 (UTC+08:00)",
    });
  });

  test("every message gets its own transaction id, also at the same millisecond", async () => {
    fake = startFake(SENT);
    await matrix.send(config(), MESSAGE, context(fake));
    await matrix.send(config(), MESSAGE, context(fake));
    expect(fake.received[0].path).not.toBe(fake.received[1].path);
  });

  test("a homeserver under a path, with a trailing slash; no lines: the title alone", async () => {
    fake = startFake(SENT);
    await matrix.send(config(`${fake.url}/matrix/`), { ...MESSAGE, lines: [] }, context(fake));
    const request = fake.received[0];
    expect(request.path).toStartWith(`/matrix${SEND}`);
    expect(request.json).toEqual({
      msgtype: "m.text",
      body: MESSAGE.title,
      format: "org.matrix.custom.html",
      formatted_body: "<strong>🔴 Monitor down: Shop &lt;API&gt; &amp; co</strong>",
    });
  });

  test("long texts: title cut to 500 characters, lines to 7000 (before escaping)", async () => {
    fake = startFake(SENT);
    await matrix.send(config(), { ...MESSAGE, title: "t".repeat(600), lines: ["&".repeat(5000), "b".repeat(5000)] }, context(fake));
    const content = fake.received[0].json as { body: string; formatted_body: string };
    const title = `${"t".repeat(499)}…`;
    const lines = `${"&".repeat(5000)}\n${"b".repeat(1998)}…`;
    expect(content.body).toBe(`${title}\n${lines}`);
    expect(content.formatted_body).toBe(`<strong>${title}</strong><br>${"&amp;".repeat(5000)}<br>${"b".repeat(1998)}…`);
  });

  test("a 2xx without an event_id is a failure", async () => {
    fake = startFake(() => new Response("<html>Element</html>"));
    expect(await matrix.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Matrix: HTTP 200: <html>Element</html>", retryable: false });
  });

  test("401 M_UNKNOWN_TOKEN is final and the token never shows; 403 M_FORBIDDEN too", async () => {
    fake = startFake(() => matrixError(401, "M_UNKNOWN_TOKEN", `Unrecognised access token ${TOKEN}`, { soft_logout: false }));
    expect(await matrix.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Matrix: Unrecognised access token •••• (M_UNKNOWN_TOKEN)", retryable: false });
    fake.answer(() => matrixError(403, "M_FORBIDDEN", "User @vigil:example.org not in room !OGEhHVWSdvArJzumhm:example.org"));
    expect(await matrix.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Matrix: User @vigil:example.org not in room !OGEhHVWSdvArJzumhm:example.org (M_FORBIDDEN)",
      retryable: false,
    });
  });

  test("429 M_LIMIT_EXCEEDED: retry_after_ms wins over Retry-After, which is the fallback", async () => {
    fake = startFake(() => matrixError(429, "M_LIMIT_EXCEEDED", "Too Many Requests", { retry_after_ms: 2345 }, { "Retry-After": "3" }));
    expect(await matrix.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Matrix: Too Many Requests (M_LIMIT_EXCEEDED)",
      retryable: true,
      retryAfterMs: 2345,
    });
    fake.answer(() => matrixError(429, "M_LIMIT_EXCEEDED", "Too Many Requests", {}, { "Retry-After": "3" }));
    expect(await matrix.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Matrix: Too Many Requests (M_LIMIT_EXCEEDED)",
      retryable: true,
      retryAfterMs: 3000,
    });
  });

  test("a 5xx is retryable; a redirect is not followed", async () => {
    fake = startFake(() => new Response("Bad Gateway", { status: 502 }));
    expect(await matrix.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Matrix: HTTP 502: Bad Gateway", retryable: true });
    fake.answer(() => new Response(null, { status: 301, headers: { Location: "https://elsewhere.example.org/" } }));
    expect(await matrix.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Matrix: HTTP 301 (redirect not followed)", retryable: false });
    expect(fake.received.map((r) => r.method)).toEqual(["PUT", "PUT"]);
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await matrix.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}`;
    expect(await matrix.send(config(closed), MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("matrix validate", () => {
  const good = { homeserver: "https://matrix.example.org", accessToken: TOKEN, roomId: ROOM };
  const code = (input: Record<string, unknown>) => {
    const result = matrix.validate(input);
    return result.ok ? "ok" : result.error.code;
  };

  test("normalises: trims, drops the homeserver's trailing slash and unknown fields", () => {
    expect(matrix.validate({ homeserver: " https://matrix.example.org/ ", accessToken: ` ${TOKEN}\n`, roomId: ` ${ROOM} `, userId: "@x:y" })).toEqual({
      ok: true,
      config: good,
    });
    expect(matrix.validate({ ...good, homeserver: "http://10.0.0.5:8008/synapse/" })).toEqual({ ok: true, config: { ...good, homeserver: "http://10.0.0.5:8008/synapse" } });
  });

  test("the homeserver: required, http(s), no query, fragment or credentials", () => {
    expect(matrix.validate({ ...good, homeserver: "" })).toEqual({ ok: false, error: { code: "MATRIX_HOMESERVER_INVALID", message: "Homeserver URL is required" } });
    expect(matrix.validate({ ...good, homeserver: "matrix.example.org" })).toEqual({
      ok: false,
      error: { code: "MATRIX_HOMESERVER_INVALID", message: "Homeserver URL must start with http:// or https://" },
    });
    expect(code({ ...good, homeserver: undefined })).toBe("MATRIX_HOMESERVER_INVALID");
    expect(code({ ...good, homeserver: "matrix://example.org" })).toBe("MATRIX_HOMESERVER_INVALID");
    expect(code({ ...good, homeserver: "https://matrix.example.org/?access_token=x" })).toBe("MATRIX_HOMESERVER_INVALID");
    expect(code({ ...good, homeserver: "https://user:pass@matrix.example.org" })).toBe("MATRIX_HOMESERVER_INVALID");
    expect(code({ ...good, homeserver: 8008 })).toBe("VALIDATION");
  });

  test("the access token: required, one word; never echoed", () => {
    expect(matrix.validate({ ...good, accessToken: " " })).toEqual({ ok: false, error: { code: "MATRIX_TOKEN_REQUIRED", message: "Access token is required" } });
    expect(code({ ...good, accessToken: undefined })).toBe("MATRIX_TOKEN_REQUIRED");
    expect(code({ ...good, accessToken: "Bearer syt_abc" })).toBe("VALIDATION");
    expect(code({ ...good, accessToken: "syt_äbc" })).toBe("VALIDATION");
    expect(matrix.validate({ ...good, accessToken: 12345678 })).toEqual({ ok: false, error: { code: "VALIDATION", message: "accessToken must be a string (got a number)" } });
  });

  test("the room id: !opaque:server", () => {
    const invalid: ReturnType<typeof matrix.validate> = {
      ok: false,
      error: { code: "MATRIX_ROOM_INVALID", message: "Room id looks like !abc123:example.org (room settings, Advanced), not an alias like #room:example.org" },
    };
    expect(matrix.validate({ ...good, roomId: "#ops:example.org" })).toEqual(invalid);
    expect(matrix.validate({ ...good, roomId: "" })).toEqual(invalid);
    expect(code({ ...good, roomId: "!abc123" })).toBe("ok"); // room version 12: no server part
    expect(code({ ...good, roomId: "!:example.org" })).toBe("MATRIX_ROOM_INVALID");
    expect(code({ ...good, roomId: "!abc:" })).toBe("MATRIX_ROOM_INVALID");
    expect(code({ ...good, roomId: "!abc:matrix.example.org:8448" })).toBe("ok");
  });

  test("secrets, rate limit", () => {
    expect(matrix.secretFields).toEqual(["accessToken"]);
    expect(matrix.perMinute).toBe(12);
  });
});
