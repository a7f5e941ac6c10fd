import { afterEach, describe, expect, test } from "bun:test";
import { discord } from "./discord";
import { closedPort, context, type Fake, MESSAGE, never, NOW, startFake } from "./test-fake";

const TOKEN = "kX9pQ2rT7vW3yZ5bN8mL1jH4gF6dS0aPoIuYtReWqXcVbNmLkJhGfDsA";
const HOOK = `/api/webhooks/1234567890123456789/${TOKEN}`;
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
/** What Discord answers with wait=true: the created message. */
const CREATED = () => Response.json({ id: "1311111111111111111", type: 0, content: "", channel_id: "1300000000000000000", webhook_id: "1234567890123456789" });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = () => ({ url: `${fake!.url}${HOOK}` });

describe("discord send", () => {
  test("posts one red embed to the webhook URL with wait=true", async () => {
    fake = startFake(CREATED);
    expect(await discord.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(`${HOOK}?wait=true`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ username: "Vigil", embeds: [{ title: MESSAGE.title, description: LINES, color: 0xe5484d }] });
  });

  test("green for ok, blue for info; no lines: no description", async () => {
    fake = startFake(CREATED);
    await discord.send(config(), { ...MESSAGE, severity: "ok" }, context(fake));
    await discord.send(config(), { ...MESSAGE, severity: "info", lines: [] }, context(fake));
    const embeds = fake.received.map((r) => (r.json as { embeds: Record<string, unknown>[] }).embeds[0]);
    expect(embeds.map((e) => e.color)).toEqual([0x30a46c, 0x0090ff]);
    expect(embeds[1]).toEqual({ title: MESSAGE.title, color: 0x0090ff });
  });

  test("a query already on the URL (thread_id) is kept", async () => {
    fake = startFake(CREATED);
    await discord.send({ url: `${fake.url}${HOOK}?thread_id=42` }, MESSAGE, context(fake));
    expect(fake.received[0].path).toBe(`${HOOK}?thread_id=42&wait=true`);
  });

  test("title cut to 256 characters, description to 4096", async () => {
    fake = startFake(CREATED);
    await discord.send(config(), { ...MESSAGE, title: "t".repeat(300), lines: ["a".repeat(3000), "b".repeat(3000)] }, context(fake));
    const embed = (fake.received[0].json as { embeds: { title: string; description: string }[] }).embeds[0];
    expect(embed.title).toBe(`${"t".repeat(255)}…`);
    expect(embed.description).toBe(`${"a".repeat(3000)}\n${"b".repeat(1094)}…`);
    expect(Array.from(embed.description)).toHaveLength(4096);
  });

  test("a 2xx that is not the created message is a failure", async () => {
    fake = startFake(() => new Response(null, { status: 204 }));
    expect(await discord.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Discord: HTTP 204", retryable: false });
    fake.answer(() => new Response("<html>proxy</html>"));
    expect(await discord.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Discord: HTTP 200: <html>proxy</html>", retryable: false });
  });

  test("Discord's error JSON: 401 invalid token is final with message and code; the token never shows", async () => {
    fake = startFake(() => Response.json({ message: `Invalid Webhook Token ${TOKEN}`, code: 50027 }, { status: 401 }));
    expect(await discord.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Discord: Invalid Webhook Token •••• (50027)", retryable: false });
    fake.answer(() => Response.json({ message: "Unknown Webhook", code: 10015 }, { status: 404 }));
    expect(await discord.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Discord: Unknown Webhook (10015)", retryable: false });
  });

  test("429: retry_after (fractional seconds) from the JSON wins over the rounded Retry-After header", async () => {
    fake = startFake(() =>
      Response.json({ message: "You are being rate limited.", retry_after: 1.337, global: false }, { status: 429, headers: { "Retry-After": "2" } }),
    );
    expect(await discord.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Discord: You are being rate limited.",
      retryable: true,
      retryAfterMs: 1337,
    });
  });

  test("429 without JSON (Cloudflare) falls back to Retry-After, also as a date", async () => {
    fake = startFake(() => new Response("error code: 1015", { status: 429, headers: { "Retry-After": "30" } }));
    expect(await discord.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Discord: HTTP 429: error code: 1015", retryable: true, retryAfterMs: 30_000 });
    fake.answer(() => new Response("slow down", { status: 429, headers: { "Retry-After": new Date(NOW + 60_000).toUTCString() } }));
    expect(await discord.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Discord: HTTP 429: slow down", retryable: true, retryAfterMs: 59_544 });
  });

  test("a 5xx is retryable", async () => {
    fake = startFake(() => Response.json({ message: "500: Internal Server Error", code: 0 }, { status: 500 }));
    expect(await discord.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Discord: 500: Internal Server Error", retryable: true });
    fake.answer(() => new Response("upstream connect error", { status: 503 }));
    expect(await discord.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Discord: HTTP 503: upstream connect error", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await discord.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const url = `http://127.0.0.1:${await closedPort()}${HOOK}`;
    expect(await discord.send({ url }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("discord validate", () => {
  const hook = `https://discord.com${HOOK}`;

  test("normalises: trims, drops unknown fields", () => {
    expect(discord.validate({ url: ` ${hook} `, username: "x" })).toEqual({ ok: true, config: { url: hook } });
  });

  test("the spec's codes", () => {
    const code = (input: Record<string, unknown>) => {
      const result = discord.validate(input);
      return result.ok ? "ok" : result.error.code;
    };
    expect(code({})).toBe("WEBHOOK_URL_REQUIRED");
    expect(code({ url: "  " })).toBe("WEBHOOK_URL_REQUIRED");
    expect(code({ url: "discord.com/api/webhooks/1/x" })).toBe("WEBHOOK_URL_INVALID");
    expect(code({ url: "https://discord.com/channels/1/2" })).toBe("WEBHOOK_URL_SHAPE");
    expect(code({ url: "https://hooks.slack.com/services/T/B/abc" })).toBe("WEBHOOK_URL_SHAPE");
    expect(discord.validate({ url: 1 })).toEqual({ ok: false, error: { code: "VALIDATION", message: "url must be a string (got a number)" } });
    expect(discord.validate({ url: "https://discord.com/channels/1/2" })).toEqual({
      ok: false,
      error: { code: "WEBHOOK_URL_SHAPE", message: "This is not a Discord webhook URL: it looks like https://discord.com/api/webhooks/{id}/{token}" },
    });
  });

  test("secrets, rate limit", () => {
    expect(discord.secretFields).toEqual(["url"]);
    expect(discord.perMinute).toBe(30);
  });
});
