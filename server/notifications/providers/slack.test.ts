import { afterEach, describe, expect, test } from "bun:test";
import { slack } from "./slack";
import { closedPort, context, type Fake, MESSAGE, never, NOW, startFake } from "./test-fake";

const HOOK_PATH = "/services/T0123ABCD/B0456EFGH/x1y2z3AbCdEfGhIjKlMnx9Qz";

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = () => ({ url: `${fake!.url}${HOOK_PATH}` });

describe("slack send", () => {
  test("posts blocks with escaped mrkdwn and a fallback text to the webhook URL", async () => {
    fake = startFake(() => new Response("ok"));
    expect(await slack.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(HOOK_PATH);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    const lines = "URL: https://shop.example.com/health?a=1&amp;b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
    expect(request.json).toEqual({
      text: `🔴 Monitor down: Shop &lt;API&gt; &amp; co\n${lines}`,
      blocks: [
        { type: "header", text: { type: "plain_text", text: "🔴 Monitor down: Shop <API> & co", emoji: true } },
        { type: "section", text: { type: "mrkdwn", text: lines } },
      ],
    });
  });

  test("no lines: only the header block; a long title is cut to Slack's 150 characters", async () => {
    fake = startFake(() => new Response("ok"));
    const title = "x".repeat(200);
    await slack.send(config(), { ...MESSAGE, title, lines: [] }, context(fake));
    const body = fake.received[0].json as { text: string; blocks: { text: { text: string } }[] };
    expect(body.blocks).toHaveLength(1);
    expect(body.blocks[0].text.text).toBe(`${"x".repeat(149)}…`);
    expect(body.text).toBe(title);
  });

  test("a 2xx body other than ok is a final failure", async () => {
    fake = startFake(() => new Response("invalid_payload"));
    expect(await slack.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Slack: invalid_payload", retryable: false });
  });

  test("Slack's error codes: 404 no_service is final, the URL key never shows", async () => {
    fake = startFake(() => new Response(`no_service ${HOOK_PATH}`, { status: 404 }));
    expect(await slack.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Slack: no_service ••••", retryable: false });
  });

  test("a long error body is truncated", async () => {
    fake = startFake(() => new Response("e".repeat(1000), { status: 400 }));
    const result = await slack.send(config(), MESSAGE, context(fake));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe(`Slack: ${"e".repeat(199)}…`);
  });

  test("429 with Retry-After is retryable after it", async () => {
    fake = startFake(() => new Response("rate_limited", { status: 429, headers: { "Retry-After": "30" } }));
    expect(await slack.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Slack: rate_limited", retryable: true, retryAfterMs: 30_000 });
  });

  test("Retry-After as an HTTP date", async () => {
    fake = startFake(() => new Response("rate_limited", { status: 429, headers: { "Retry-After": new Date(NOW + 90_000).toUTCString() } }));
    const result = await slack.send(config(), MESSAGE, context(fake));
    // The date has whole seconds; NOW has 456 ms.
    expect(result).toEqual({ ok: false, error: "Slack: rate_limited", retryable: true, retryAfterMs: 89_544 });
  });

  test("500 is retryable", async () => {
    fake = startFake(() => new Response("rollup_error", { status: 500 }));
    expect(await slack.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Slack: rollup_error", retryable: true });
  });

  test("no answer within the timeout is retryable", async () => {
    fake = startFake(never);
    expect(await slack.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
  });

  test("a refused connection is retryable", async () => {
    const url = `http://127.0.0.1:${await closedPort()}${HOOK_PATH}`;
    expect(await slack.send({ url }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("slack validate", () => {
  test("normalises: trims, drops unknown fields", () => {
    expect(slack.validate({ url: "  https://hooks.slack.com/services/T/B/abc ", channel: "#x" })).toEqual({
      ok: true,
      config: { url: "https://hooks.slack.com/services/T/B/abc" },
    });
  });

  test("the spec's codes and messages", () => {
    const required: ReturnType<typeof slack.validate> = { ok: false, error: { code: "WEBHOOK_URL_REQUIRED", message: "Webhook URL is required" } };
    const invalid: ReturnType<typeof slack.validate> = { ok: false, error: { code: "WEBHOOK_URL_INVALID", message: "Webhook URL must start with http:// or https://" } };
    expect(slack.validate({})).toEqual(required);
    expect(slack.validate({ url: " " })).toEqual(required);
    expect(slack.validate({ url: null })).toEqual(required);
    expect(slack.validate({ url: "hooks.slack.com/services/x" })).toEqual(invalid);
    expect(slack.validate({ url: "ftp://hooks.slack.com/x" })).toEqual(invalid);
    expect(slack.validate({ url: "https://" })).toEqual(invalid);
    expect(slack.validate({ url: `https://hooks.slack.com/${"a".repeat(2048)}` })).toEqual(invalid);
    expect(slack.validate({ url: 5 })).toEqual({ ok: false, error: { code: "VALIDATION", message: "url must be a string (got a number)" } });
  });

  test("secrets, rate limit", () => {
    expect(slack.secretFields).toEqual(["url"]);
    expect(slack.perMinute).toBe(60);
  });
});

test("slack: a long section is cut to 3000 characters counted escaped, never inside an entity", async () => {
  fake = startFake(() => new Response("ok"));
  await slack.send(config(), { ...MESSAGE, lines: ["a", "&".repeat(1000)] }, context(fake));
  const section = (fake.received[0].json as { blocks: { text: { text: string } }[] }).blocks[1].text.text;
  expect(section.length).toBeLessThanOrEqual(3000);
  expect(section).toMatch(/^a\n(&amp;)+…$/);
});
