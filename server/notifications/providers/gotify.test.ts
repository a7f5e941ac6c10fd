import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { gotify } from "./gotify";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const TOKEN = "AKp5vRrI.Xq3c5u";
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const EXTRAS = { "client::display": { contentType: "text/plain" } };
const CREATED = () => Response.json({ id: 25, appid: 5, message: "x", title: "y", priority: 8, date: "2026-11-23T03:02:03Z" });
const gotifyError = (status: number, error: string, errorDescription: string, headers: Record<string, string> = {}) =>
  Response.json({ error, errorCode: status, errorDescription }, { status, headers });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = (extra: Partial<ChannelConfigs["gotify"]> = {}): ChannelConfigs["gotify"] => ({ server: fake!.url, token: TOKEN, ...extra });

describe("gotify send", () => {
  test("POSTs /message with X-Gotify-Key and a plain-text message", async () => {
    fake = startFake(CREATED);
    expect(await gotify.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/message");
    expect(request.headers["x-gotify-key"]).toBe(TOKEN);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ title: MESSAGE.title, message: LINES, priority: 8, extras: EXTRAS });
  });

  test("priority: the configured one, else 8 critical, 4 ok, 2 info", async () => {
    fake = startFake(CREATED);
    await gotify.send(config({ priority: 0 }), MESSAGE, context(fake));
    await gotify.send(config(), { ...MESSAGE, severity: "ok" }, context(fake));
    await gotify.send(config(), { ...MESSAGE, severity: "info" }, context(fake));
    expect(fake.received.map((r) => (r.json as { priority: number }).priority)).toEqual([0, 4, 2]);
  });

  test("a server under a path with a trailing slash; no lines: the title is the message", async () => {
    fake = startFake(CREATED);
    await gotify.send(config({ server: `${fake.url}/gotify/` }), { ...MESSAGE, lines: [] }, context(fake));
    expect(fake.received[0].path).toBe("/gotify/message");
    expect(fake.received[0].json).toEqual({ message: MESSAGE.title, priority: 8, extras: EXTRAS });
  });

  test("a 2xx without a message id is a failure", async () => {
    fake = startFake(() => new Response("<html>Gotify</html>"));
    expect(await gotify.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Gotify: HTTP 200: <html>Gotify</html>", retryable: false });
  });

  test("401 is final with Gotify's error, and the token never shows", async () => {
    fake = startFake(() => gotifyError(401, "Unauthorized", `you need to provide a valid access token (${TOKEN})`));
    expect(await gotify.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Gotify: Unauthorized: you need to provide a valid access token (••••)",
      retryable: false,
    });
    fake.answer(() => Response.json({ error: "Bad Request" }, { status: 400 }));
    expect(await gotify.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Gotify: Bad Request", retryable: false });
  });

  test("429 with Retry-After is retryable after it", async () => {
    fake = startFake(() => gotifyError(429, "Too Many Requests", "slow down", { "Retry-After": "5" }));
    expect(await gotify.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Gotify: Too Many Requests: slow down", retryable: true, retryAfterMs: 5000 });
  });

  test("a 5xx is retryable", async () => {
    fake = startFake(() => gotifyError(500, "Internal Server Error", "database is locked"));
    expect(await gotify.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Gotify: Internal Server Error: database is locked", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await gotify.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const server = `http://127.0.0.1:${await closedPort()}`;
    expect(await gotify.send({ server, token: TOKEN }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("gotify validate", () => {
  const good = { server: "https://gotify.example.com", token: TOKEN };
  const error = (input: Record<string, unknown>) => {
    const result = gotify.validate(input);
    return result.ok ? null : result.error;
  };
  const code = (input: Record<string, unknown>) => error(input)?.code ?? "ok";

  test("normalises: trims, drops the trailing slash, a blank priority and unknown fields", () => {
    expect(gotify.validate({ server: " https://gotify.example.com/ ", token: ` ${TOKEN} `, priority: "", x: 1 })).toEqual({ ok: true, config: good });
    expect(gotify.validate({ ...good, priority: 10 })).toEqual({ ok: true, config: { ...good, priority: 10 } });
    expect(gotify.validate({ ...good, priority: "0" })).toEqual({ ok: true, config: { ...good, priority: 0 } });
  });

  test("the server: required, http(s), no credentials, query or fragment", () => {
    expect(error({ ...good, server: " " })).toEqual({ code: "GOTIFY_SERVER_INVALID", message: "Server URL is required" });
    expect(error({ ...good, server: "gotify.example.com" })).toEqual({ code: "GOTIFY_SERVER_INVALID", message: "Server URL must start with http:// or https://" });
    expect(code({ ...good, server: "https://gotify.example.com/?token=x" })).toBe("GOTIFY_SERVER_INVALID");
    expect(code({ ...good, server: "https://admin:pw@gotify.example.com" })).toBe("GOTIFY_SERVER_INVALID");
  });

  test("the token: required, one word; never echoed", () => {
    expect(error({ ...good, token: "" })).toEqual({ code: "GOTIFY_TOKEN_REQUIRED", message: "Application token is required" });
    expect(code({ ...good, token: undefined })).toBe("GOTIFY_TOKEN_REQUIRED");
    expect(error({ ...good, token: "A b" })).toEqual({ code: "VALIDATION", message: "token must not contain spaces or non-ASCII characters" });
    expect(error({ ...good, token: 42 })).toEqual({ code: "VALIDATION", message: "token must be a string (got a number)" });
  });

  test("priority 0-10", () => {
    expect(error({ ...good, priority: 11 })).toEqual({ code: "VALIDATION", message: "priority must be a whole number from 0 to 10 (got number 11)" });
    expect(code({ ...good, priority: -1 })).toBe("VALIDATION");
    expect(code({ ...good, priority: 4.5 })).toBe("VALIDATION");
    expect(code({ ...good, priority: true })).toBe("VALIDATION");
  });

  test("secrets, rate limit", () => {
    expect(gotify.secretFields).toEqual(["token"]);
    expect(gotify.perMinute).toBe(60);
  });
});
