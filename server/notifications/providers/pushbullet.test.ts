import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { pushbullet } from "./pushbullet";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const TOKEN = "o.AbCdEfGhIjKlMnOpQrStUvWxYz012345";
const CONFIG: ChannelConfigs["pushbullet"] = { accessToken: TOKEN };
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const PUSHED = () => Response.json({ active: true, iden: "ujpah72o0sjAoRtnM0jc", type: "note", dismissed: false });
const rejected = (status: number, message: string, headers: Record<string, string> = {}) =>
  Response.json({ error: { code: "invalid_request", type: "invalid_request", message, cat: "~(=^‥^)" }, error_code: "invalid_request" }, { status, headers });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

/** The fake stands in for api.pushbullet.com. */
const ctx = (overrides: Parameters<typeof context>[1] = {}) => context(fake!, { endpoints: { telegram: "", resend: "", pushbullet: fake!.url }, ...overrides });

describe("pushbullet send", () => {
  test("POSTs a note to /v2/pushes with the Access-Token header", async () => {
    fake = startFake(PUSHED);
    expect(await pushbullet.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v2/pushes");
    expect(request.headers["access-token"]).toBe(TOKEN);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ type: "note", title: MESSAGE.title, body: LINES });
  });

  test("no lines: the title is the body; without an override the real host is used", async () => {
    fake = startFake(PUSHED);
    await pushbullet.send(CONFIG, { ...MESSAGE, lines: [] }, ctx());
    expect(fake.received[0].json).toEqual({ type: "note", body: MESSAGE.title });
    const urls: string[] = [];
    const recording = Object.assign(async (url: string | URL | Request) => (urls.push(String(url)), Response.json({ iden: "x" })), { preconnect: fetch.preconnect });
    expect(await pushbullet.send(CONFIG, MESSAGE, context(null, { fetch: recording as typeof fetch }))).toEqual({ ok: true });
    expect(urls).toEqual(["https://api.pushbullet.com/v2/pushes"]);
  });

  test("a 2xx without a push iden is a failure", async () => {
    fake = startFake(() => new Response("<html>Pushbullet</html>"));
    expect(await pushbullet.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Pushbullet: HTTP 200: <html>Pushbullet</html>", retryable: false });
  });

  test("401 is final with Pushbullet's message, and the token never shows", async () => {
    fake = startFake(() => rejected(401, `Access token is missing or invalid: ${TOKEN}`));
    expect(await pushbullet.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Pushbullet: Access token is missing or invalid: ••••", retryable: false });
  });

  test("429 (the month's pushes spent) with Retry-After is retryable after it; a 5xx is retryable", async () => {
    fake = startFake(() => rejected(429, "Account has reached the push limit.", { "Retry-After": "3600" }));
    expect(await pushbullet.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Pushbullet: Account has reached the push limit.", retryable: true, retryAfterMs: 3_600_000 });
    fake.answer(() => new Response("", { status: 502 }));
    expect(await pushbullet.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Pushbullet: HTTP 502", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await pushbullet.send(CONFIG, MESSAGE, ctx({ timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}`;
    expect(await pushbullet.send(CONFIG, MESSAGE, context(null, { endpoints: { telegram: "", resend: "", pushbullet: closed } }))).toEqual({
      ok: false,
      error: "connection refused",
      retryable: true,
    });
  });
});

describe("pushbullet validate", () => {
  const error = (input: Record<string, unknown>) => {
    const result = pushbullet.validate(input);
    return result.ok ? null : result.error;
  };

  test("normalises: trims, drops unknown fields", () => {
    expect(pushbullet.validate({ accessToken: ` ${TOKEN} `, device: "phone" })).toEqual({ ok: true, config: CONFIG });
  });

  test("the token: required, one word; never echoed", () => {
    expect(error({})).toEqual({ code: "PUSHBULLET_TOKEN_REQUIRED", message: "An access token is required" });
    expect(error({ accessToken: "o.a b" })).toEqual({ code: "VALIDATION", message: "accessToken must not contain spaces or non-ASCII characters" });
    expect(error({ accessToken: 3 })).toEqual({ code: "VALIDATION", message: "accessToken must be a string (got a number)" });
  });

  test("secrets, rate limit, no user URL", () => {
    expect(pushbullet.secretFields).toEqual(["accessToken"]);
    expect(pushbullet.perMinute).toBe(30);
    expect(pushbullet.target).toBeUndefined();
  });
});
