import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { ntfy } from "./ntfy";
import { closedPort, context, type Fake, MESSAGE, never, NOW, startFake } from "./test-fake";

const TOKEN = "tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2";
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const PUBLISHED = () => Response.json({ id: "sPs71M8A2T", time: 1700000000, event: "message", topic: "vigil-alerts", message: "x" });
const ntfyError = (status: number, code: number, error: string, headers: Record<string, string> = {}) =>
  Response.json({ code, http: status, error, link: "https://ntfy.sh/docs/publish/" }, { status, headers });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = (extra: Partial<ChannelConfigs["ntfy"]> = {}): ChannelConfigs["ntfy"] => ({ server: fake!.url, topic: "vigil-alerts", ...extra });

describe("ntfy send", () => {
  test("POSTs a JSON publish to the server's root: title, lines, default priority, severity tag", async () => {
    fake = startFake(PUBLISHED);
    expect(await ntfy.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.json).toEqual({ topic: "vigil-alerts", title: MESSAGE.title, message: LINES, priority: 4, tags: ["rotating_light"] });
  });

  test("the configured priority and tags; ok and info default to priority 3 with their own tag", async () => {
    fake = startFake(PUBLISHED);
    await ntfy.send(config({ priority: 5, tags: ["prod", "shop"] }), MESSAGE, context(fake));
    expect(fake.received[0].json).toMatchObject({ priority: 5, tags: ["prod", "shop", "rotating_light"] });
    await ntfy.send(config(), { ...MESSAGE, severity: "ok" }, context(fake));
    expect(fake.received[1].json).toMatchObject({ priority: 3, tags: ["white_check_mark"] });
    await ntfy.send(config(), { ...MESSAGE, severity: "info" }, context(fake));
    expect(fake.received[2].json).toMatchObject({ priority: 3, tags: ["information_source"] });
  });

  test("a token goes as Bearer, a user and password as Basic", async () => {
    fake = startFake(PUBLISHED);
    await ntfy.send(config({ token: TOKEN }), MESSAGE, context(fake));
    expect(fake.received[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
    await ntfy.send(config({ username: "vigil", password: "pässword" }), MESSAGE, context(fake));
    expect(fake.received[1].headers.authorization).toBe(`Basic ${Buffer.from("vigil:pässword").toString("base64")}`);
  });

  test("a server under a path with a trailing slash; no lines: the title is the message", async () => {
    fake = startFake(PUBLISHED);
    await ntfy.send(config({ server: `${fake.url}/ntfy/` }), { ...MESSAGE, lines: [] }, context(fake));
    expect(fake.received[0].path).toBe("/ntfy/");
    expect(fake.received[0].json).toEqual({ topic: "vigil-alerts", message: MESSAGE.title, priority: 4, tags: ["rotating_light"] });
  });

  test("the message is cut to ntfy's 4096 bytes", async () => {
    fake = startFake(PUBLISHED);
    await ntfy.send(config(), { ...MESSAGE, lines: ["é".repeat(3000)] }, context(fake));
    const sent = (fake.received[0].json as { message: string }).message;
    expect(new TextEncoder().encode(sent).length).toBeLessThanOrEqual(4096);
    expect(sent).toBe(`${"é".repeat(2046)}…`);
  });

  test("a 2xx without a message id is a failure", async () => {
    fake = startFake(() => new Response("<html>captive portal</html>"));
    expect(await ntfy.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "ntfy: HTTP 200: <html>captive portal</html>", retryable: false });
  });

  test("403 is final with ntfy's error and code, and no credential shows", async () => {
    fake = startFake(() => ntfyError(403, 40301, `forbidden for ${TOKEN}`));
    expect(await ntfy.send(config({ token: TOKEN }), MESSAGE, context(fake))).toEqual({ ok: false, error: "ntfy: forbidden for •••• (40301)", retryable: false });
    const basic = Buffer.from("vigil:secret-pass").toString("base64");
    fake.answer(() => ntfyError(401, 40101, `unauthorized: Basic ${basic} / secret-pass`));
    expect(await ntfy.send(config({ username: "vigil", password: "secret-pass" }), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "ntfy: unauthorized: Basic •••• / •••• (40101)",
      retryable: false,
    });
  });

  test("429 with Retry-After is retryable after it", async () => {
    fake = startFake(() => ntfyError(429, 42901, "limit reached: too many requests", { "Retry-After": "12" }));
    expect(await ntfy.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "ntfy: limit reached: too many requests (42901)",
      retryable: true,
      retryAfterMs: 12_000,
    });
  });

  test("a 5xx is retryable", async () => {
    fake = startFake(() => new Response("Bad Gateway", { status: 502 }));
    expect(await ntfy.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "ntfy: HTTP 502: Bad Gateway", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await ntfy.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const server = `http://127.0.0.1:${await closedPort()}`;
    expect(await ntfy.send({ server, topic: "t", token: TOKEN }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("ntfy validate", () => {
  const good = { server: "https://ntfy.sh", topic: "vigil-alerts" };
  const error = (input: Record<string, unknown>) => {
    const result = ntfy.validate(input);
    return result.ok ? null : result.error;
  };
  const code = (input: Record<string, unknown>) => error(input)?.code ?? "ok";

  test("normalises: trims, drops the trailing slash, blank optionals and unknown fields; tags from a string", () => {
    expect(ntfy.validate({ server: " https://ntfy.sh/ ", topic: " vigil-alerts ", token: " ", username: "", priority: "", tags: " ", x: 1 })).toEqual({
      ok: true,
      config: good,
    });
    expect(ntfy.validate({ ...good, token: ` ${TOKEN} `, priority: "5", tags: "prod, shop,, warning " })).toEqual({
      ok: true,
      config: { ...good, token: TOKEN, priority: 5, tags: ["prod", "shop", "warning"] },
    });
    expect(ntfy.validate({ ...good, server: "http://10.0.0.2:8080", username: " vigil ", password: "pw", priority: 1, tags: [" a ", ""] })).toEqual({
      ok: true,
      config: { server: "http://10.0.0.2:8080", topic: "vigil-alerts", username: "vigil", password: "pw", priority: 1, tags: ["a"] },
    });
  });

  test("the server: required, http(s), no credentials, query or fragment", () => {
    expect(error({ ...good, server: "" })).toEqual({ code: "NTFY_SERVER_INVALID", message: "Server URL is required" });
    expect(error({ ...good, server: "ntfy.sh" })).toEqual({ code: "NTFY_SERVER_INVALID", message: "Server URL must start with http:// or https://" });
    expect(error({ ...good, server: "https://u:p@ntfy.example.com" })).toEqual({
      code: "NTFY_SERVER_INVALID",
      message: "Server URL must not contain credentials, a query or a fragment",
    });
    expect(code({ ...good, server: "https://ntfy.sh/?auth=x" })).toBe("NTFY_SERVER_INVALID");
    expect(code({ ...good, server: undefined })).toBe("NTFY_SERVER_INVALID");
    expect(code({ ...good, server: 443 })).toBe("VALIDATION");
  });

  test("the topic: required, 1-64 of letters, digits, - and _", () => {
    expect(error({ ...good, topic: " " })).toEqual({ code: "NTFY_TOPIC_INVALID", message: "Topic is required" });
    expect(error({ ...good, topic: "my topic" })).toEqual({ code: "NTFY_TOPIC_INVALID", message: "Topic must be 1-64 letters, digits, - or _" });
    expect(code({ ...good, topic: "a/b" })).toBe("NTFY_TOPIC_INVALID");
    expect(code({ ...good, topic: "x".repeat(65) })).toBe("NTFY_TOPIC_INVALID");
    expect(code({ ...good, topic: "x".repeat(64) })).toBe("ok");
  });

  test("credentials: a token or a user with a password, never both; secrets never echoed", () => {
    expect(error({ ...good, token: TOKEN, username: "u", password: "p" })).toEqual({
      code: "VALIDATION",
      message: "Use either an access token or a username and password, not both",
    });
    expect(error({ ...good, password: "p" })).toEqual({ code: "VALIDATION", message: "A password needs a username" });
    expect(error({ ...good, username: "u" })).toEqual({ code: "VALIDATION", message: "A username needs a password" });
    expect(error({ ...good, username: "a:b", password: "p" })).toEqual({ code: "VALIDATION", message: "username must not contain a colon" });
    expect(error({ ...good, token: "tk_ bad" })).toEqual({ code: "VALIDATION", message: "token must not contain spaces or non-ASCII characters" });
    expect(error({ ...good, token: 12345 })).toEqual({ code: "VALIDATION", message: "token must be a string (got a number)" });
  });

  test("priority 1-5 and at most 10 string tags", () => {
    expect(error({ ...good, priority: 6 })).toEqual({ code: "VALIDATION", message: "priority must be a whole number from 1 to 5 (got number 6)" });
    expect(code({ ...good, priority: 0 })).toBe("VALIDATION");
    expect(code({ ...good, priority: 2.5 })).toBe("VALIDATION");
    expect(code({ ...good, priority: "high" })).toBe("VALIDATION");
    expect(code({ ...good, tags: Array.from({ length: 10 }, (_, i) => `t${i}`) })).toBe("ok");
    expect(error({ ...good, tags: Array.from({ length: 11 }, (_, i) => `t${i}`).join(",") })).toEqual({ code: "VALIDATION", message: "tags may hold at most 10 tags (got 11)" });
    expect(error({ ...good, tags: ["a", 1] })).toEqual({ code: "VALIDATION", message: "tags must be a list of strings (got number 1 in it)" });
    expect(code({ ...good, tags: { a: 1 } })).toBe("VALIDATION");
  });

  test("secrets, rate limit", () => {
    expect(ntfy.secretFields).toEqual(["token", "password"]);
    expect(ntfy.perMinute).toBe(60);
  });
});

test("ntfy: Retry-After as an HTTP date", async () => {
  fake = startFake(() => ntfyError(429, 42901, "limit reached", { "Retry-After": new Date(NOW + 60_000).toUTCString() }));
  const result = await ntfy.send(config(), MESSAGE, context(fake));
  expect(result).toEqual({ ok: false, error: "ntfy: limit reached (42901)", retryable: true, retryAfterMs: 59_544 });
});
