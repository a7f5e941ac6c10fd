import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { telegram } from "./telegram";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw_";
const CONFIG: ChannelConfigs["telegram"] = { botToken: TOKEN, chatId: "-1001234567890" };

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

describe("telegram send", () => {
  test("posts sendMessage with the token in the path and HTML text", async () => {
    fake = startFake(() => Response.json({ ok: true, result: { message_id: 1 } }));
    const result = await telegram.send(CONFIG, MESSAGE, context(fake));
    expect(result).toEqual({ ok: true });
    expect(fake.received).toHaveLength(1);
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(`/bot${TOKEN}/sendMessage`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({
      chat_id: "-1001234567890",
      text:
        "<b>🔴 Monitor down: Shop &lt;API&gt; &amp; co</b>\n" +
        "URL: https://shop.example.com/health?a=1&amp;b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)",
      parse_mode: "HTML",
      disable_web_page_preview: true,
    });
  });

  test("a trailing slash on the API base is not doubled", async () => {
    fake = startFake(() => Response.json({ ok: true }));
    await telegram.send(CONFIG, { ...MESSAGE, lines: [] }, context(null, { endpoints: { telegram: `${fake.url}/`, resend: "" } }));
    expect(fake.received[0].path).toBe(`/bot${TOKEN}/sendMessage`);
    expect((fake.received[0].json as { text: string }).text).toBe("<b>🔴 Monitor down: Shop &lt;API&gt; &amp; co</b>");
  });

  test("ok:false is a final failure with Telegram's description", async () => {
    fake = startFake(() => Response.json({ ok: false, error_code: 400, description: "Bad Request: chat not found" }, { status: 400 }));
    expect(await telegram.send(CONFIG, MESSAGE, context(fake))).toEqual({ ok: false, error: "Telegram: Bad Request: chat not found", retryable: false });
  });

  test("ok:false inside an HTTP 200 is still a failure", async () => {
    fake = startFake(() => Response.json({ ok: false, description: "Forbidden: bot was kicked" }));
    expect(await telegram.send(CONFIG, MESSAGE, context(fake))).toEqual({ ok: false, error: "Telegram: Forbidden: bot was kicked", retryable: false });
  });

  test("401 (bad token) is final and the token never shows", async () => {
    fake = startFake(() => Response.json({ ok: false, error_code: 401, description: `Unauthorized ${TOKEN}` }, { status: 401 }));
    const result = await telegram.send(CONFIG, MESSAGE, context(fake));
    expect(result).toEqual({ ok: false, error: "Telegram: Unauthorized ••••", retryable: false });
  });

  test("429 with parameters.retry_after is retryable after that many seconds", async () => {
    fake = startFake(() =>
      Response.json({ ok: false, error_code: 429, description: "Too Many Requests: retry after 7", parameters: { retry_after: 7 } }, { status: 429 }),
    );
    expect(await telegram.send(CONFIG, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Telegram: Too Many Requests: retry after 7",
      retryable: true,
      retryAfterMs: 7000,
    });
  });

  test("a 502 without JSON is retryable", async () => {
    fake = startFake(() => new Response("<html>Bad Gateway</html>", { status: 502 }));
    expect(await telegram.send(CONFIG, MESSAGE, context(fake))).toEqual({ ok: false, error: "Telegram: HTTP 502: <html>Bad Gateway</html>", retryable: true });
  });

  test("no answer within the timeout is retryable", async () => {
    fake = startFake(never);
    const started = performance.now();
    expect(await telegram.send(CONFIG, MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  test("a refused connection is retryable and does not leak the token", async () => {
    const port = await closedPort();
    const result = await telegram.send(CONFIG, MESSAGE, context({ url: `http://127.0.0.1:${port}` }));
    expect(result).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("telegram validate", () => {
  const error = (config: Record<string, unknown>) => {
    const checked = telegram.validate(config);
    return checked.ok ? null : checked.error;
  };

  test("normalises a valid config: trims and drops unknown fields", () => {
    expect(telegram.validate({ botToken: `  ${TOKEN} `, chatId: " @vigil_alerts ", extra: 1 })).toEqual({
      ok: true,
      config: { botToken: TOKEN, chatId: "@vigil_alerts" },
    });
    expect(telegram.validate({ botToken: TOKEN, chatId: "12345" })).toEqual({ ok: true, config: { botToken: TOKEN, chatId: "12345" } });
  });

  test("the spec's codes and messages, first problem first", () => {
    expect(error({})).toEqual({ code: "BOT_TOKEN_REQUIRED", message: "Bot Token is required" });
    expect(error({ botToken: "   ", chatId: "" })).toEqual({ code: "BOT_TOKEN_REQUIRED", message: "Bot Token is required" });
    expect(error({ botToken: "123:short" })).toEqual({ code: "BOT_TOKEN_INVALID", message: "Invalid Bot Token format" });
    expect(error({ botToken: `abc:${TOKEN.split(":")[1]}` })).toEqual({ code: "BOT_TOKEN_INVALID", message: "Invalid Bot Token format" });
    expect(error({ botToken: `${TOKEN}x` })).toEqual({ code: "BOT_TOKEN_INVALID", message: "Invalid Bot Token format" });
    expect(error({ botToken: TOKEN })).toEqual({ code: "CHAT_ID_REQUIRED", message: "Chat ID is required" });
    expect(error({ botToken: TOKEN, chatId: "  " })).toEqual({ code: "CHAT_ID_REQUIRED", message: "Chat ID is required" });
  });

  test("wrong types and a malformed chat id are VALIDATION errors naming the field", () => {
    expect(error({ botToken: TOKEN, chatId: -100123 })).toEqual({ code: "VALIDATION", message: "chatId must be a string (got number -100123)" });
    expect(error({ botToken: 42, chatId: "1" })).toEqual({ code: "VALIDATION", message: "botToken must be a string (got a number)" });
    expect(error({ botToken: TOKEN, chatId: "not a chat" })).toEqual({
      code: "VALIDATION",
      message: 'chatId must be a numeric ID or @channelname (got "not a chat")',
    });
  });

  test("secrets, rate limit", () => {
    expect(telegram.secretFields).toEqual(["botToken"]);
    expect(telegram.perMinute).toBe(20);
  });
});

test("telegram: a secret is redacted before a long description is cut", async () => {
  fake = startFake(() => Response.json({ ok: false, description: `${"x".repeat(190)} ${TOKEN}` }, { status: 400 }));
  const result = await telegram.send(CONFIG, MESSAGE, context(fake));
  expect(result).toEqual({ ok: false, error: `Telegram: ${"x".repeat(190)} ••••`, retryable: false });
});
