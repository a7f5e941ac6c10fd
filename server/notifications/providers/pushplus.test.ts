import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { pushplus } from "./pushplus";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const TOKEN = "be8652e98bd04139a13e1bffcd6d0f71";
const CONFIG: ChannelConfigs["pushplus"] = { token: TOKEN };
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const SENT = () => Response.json({ code: 200, msg: "请求成功", data: "075074e3c17e449e9a0cb79cc6f3fc83" });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

/** The fake stands in for www.pushplus.plus. */
const ctx = (overrides: Parameters<typeof context>[1] = {}) => context(fake!, { endpoints: { telegram: "", resend: "", pushplus: fake!.url }, ...overrides });

describe("pushplus send", () => {
  test("POSTs /send with the token, title, lines as plain text", async () => {
    fake = startFake(SENT);
    expect(await pushplus.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/send");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ token: TOKEN, title: MESSAGE.title, content: LINES, template: "txt" });
  });

  test("a topic sends to the group; no lines: the title is the content", async () => {
    fake = startFake(SENT);
    await pushplus.send({ ...CONFIG, topic: "ops" }, { ...MESSAGE, lines: [] }, ctx());
    expect(fake.received[0].json).toEqual({ token: TOKEN, title: MESSAGE.title, content: MESSAGE.title, template: "txt", topic: "ops" });
  });

  test("title cut to 100 characters, content to 20 000", async () => {
    fake = startFake(SENT);
    await pushplus.send(CONFIG, { ...MESSAGE, title: "标".repeat(150), lines: ["c".repeat(30_000)] }, ctx());
    const sent = fake.received[0].json as { title: string; content: string };
    expect(sent.title).toBe(`${"标".repeat(99)}…`);
    expect(sent.content).toBe(`${"c".repeat(19_999)}…`);
  });

  test("without an override the real host is used", async () => {
    const urls: string[] = [];
    const recording = Object.assign(async (url: string | URL | Request) => (urls.push(String(url)), Response.json({ code: 200 })), { preconnect: fetch.preconnect });
    expect(await pushplus.send(CONFIG, MESSAGE, context(null, { fetch: recording as typeof fetch }))).toEqual({ ok: true });
    expect(urls).toEqual(["https://www.pushplus.plus/send"]);
  });

  test("a 200 with an error code is a final failure, and the token never shows", async () => {
    fake = startFake(() => Response.json({ code: 903, msg: `无效的用户令牌 ${TOKEN}`, data: null }));
    expect(await pushplus.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "PushPlus: 无效的用户令牌 •••• (903)", retryable: false });
    fake.answer(() => new Response("<html>maintenance</html>"));
    expect(await pushplus.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "PushPlus: HTTP 200: <html>maintenance</html>", retryable: false });
  });

  test("a 4xx is final", async () => {
    fake = startFake(() => Response.json({ code: 405, msg: "请求方式不正确" }, { status: 405 }));
    expect(await pushplus.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "PushPlus: 请求方式不正确 (405)", retryable: false });
  });

  test("codes 900 (sending too often) and 999 (server error) are retryable", async () => {
    fake = startFake(() => Response.json({ code: 900, msg: "用户账号使用受限" }));
    expect(await pushplus.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "PushPlus: 用户账号使用受限 (900)", retryable: true });
    fake.answer(() => Response.json({ code: 999, msg: "服务端异常" }));
    expect(await pushplus.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "PushPlus: 服务端异常 (999)", retryable: true });
  });

  test("429 with Retry-After is retryable after it; a 5xx is retryable", async () => {
    fake = startFake(() => new Response("Too Many Requests", { status: 429, headers: { "Retry-After": "30" } }));
    expect(await pushplus.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "PushPlus: HTTP 429: Too Many Requests", retryable: true, retryAfterMs: 30_000 });
    fake.answer(() => new Response("Bad Gateway", { status: 502 }));
    expect(await pushplus.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "PushPlus: HTTP 502: Bad Gateway", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await pushplus.send(CONFIG, MESSAGE, ctx({ timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}`;
    expect(await pushplus.send(CONFIG, MESSAGE, context(null, { endpoints: { telegram: "", resend: "", pushplus: closed } }))).toEqual({
      ok: false,
      error: "connection refused",
      retryable: true,
    });
  });
});

describe("pushplus validate", () => {
  const error = (input: Record<string, unknown>) => {
    const result = pushplus.validate(input);
    return result.ok ? null : result.error;
  };

  test("normalises: trims, drops a blank topic and unknown fields", () => {
    expect(pushplus.validate({ token: ` ${TOKEN} `, topic: " ", channel: "wechat" })).toEqual({ ok: true, config: CONFIG });
    expect(pushplus.validate({ token: TOKEN.toUpperCase(), topic: " ops-team " })).toEqual({ ok: true, config: { token: TOKEN.toUpperCase(), topic: "ops-team" } });
  });

  test("the token: required, 32 hex characters; never echoed", () => {
    expect(error({})).toEqual({ code: "PUSHPLUS_TOKEN_INVALID", message: "Token is required" });
    const invalid = { code: "PUSHPLUS_TOKEN_INVALID", message: "Token must be 32 hexadecimal characters" };
    expect(error({ token: TOKEN.slice(1) })).toEqual(invalid);
    expect(error({ token: `${TOKEN.slice(1)}g` })).toEqual(invalid);
    expect(error({ token: `${TOKEN}0` })).toEqual(invalid);
    expect(error({ token: 5 })).toEqual({ code: "VALIDATION", message: "token must be a string (got a number)" });
  });

  test("the topic: one word", () => {
    expect(error({ token: TOKEN, topic: "ops team" })).toEqual({ code: "VALIDATION", message: 'topic must be a group code without spaces (got "ops team")' });
    expect(error({ token: TOKEN, topic: 1 })).toEqual({ code: "VALIDATION", message: "topic must be a string (got number 1)" });
  });

  test("secrets, rate limit", () => {
    expect(pushplus.secretFields).toEqual(["token"]);
    expect(pushplus.perMinute).toBe(10);
  });
});
