import { afterEach, describe, expect, test } from "bun:test";
import { mattermost } from "./mattermost";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const KEY = "8qcx5ta3sfdmjbn4kdc7r9j4oe";
const HOOK = `/hooks/${KEY}`;
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = () => ({ url: `${fake!.url}${HOOK}` });
const appError = (id: string, message: string, status: number) =>
  Response.json({ id, message, detailed_error: "", request_id: "r4nd0mr3qu3st1d", status_code: status }, { status });

describe("mattermost send", () => {
  test("posts markdown: the title as a heading, then the lines as they are", async () => {
    fake = startFake(() => new Response("ok"));
    expect(await mattermost.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(HOOK);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ username: "Vigil", text: `#### ${MESSAGE.title}\n${LINES}` });
  });

  test("no lines: the heading alone; a long text is cut to 16 000 characters", async () => {
    fake = startFake(() => new Response("ok"));
    await mattermost.send(config(), { ...MESSAGE, lines: [] }, context(fake));
    expect((fake.received[0].json as { text: string }).text).toBe(`#### ${MESSAGE.title}`);
    await mattermost.send(config(), { ...MESSAGE, title: "T", lines: ["x".repeat(20_000)] }, context(fake));
    expect((fake.received[1].json as { text: string }).text).toBe(`#### T\n${"x".repeat(15_992)}…`);
  });

  test("a 2xx body other than ok is a failure", async () => {
    fake = startFake(() => new Response("<html>Mattermost</html>"));
    expect(await mattermost.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Mattermost: HTTP 200: <html>Mattermost</html>", retryable: false });
  });

  test("Mattermost's app error: final, with message and id; the hook key never shows", async () => {
    fake = startFake(() => appError("web.incoming_webhook.invalid.app_error", `Invalid webhook ${KEY}.`, 400));
    expect(await mattermost.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Mattermost: Invalid webhook ••••. (web.incoming_webhook.invalid.app_error)",
      retryable: false,
    });
    fake.answer(() => new Response(`404 page not found: ${HOOK}`, { status: 404 }));
    expect(await mattermost.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Mattermost: HTTP 404: 404 page not found: ••••", retryable: false });
  });

  test("429 with Retry-After is retryable after it", async () => {
    fake = startFake(() => new Response("limit exceeded", { status: 429, headers: { "Retry-After": "1", "X-Ratelimit-Limit": "10" } }));
    expect(await mattermost.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Mattermost: HTTP 429: limit exceeded", retryable: true, retryAfterMs: 1000 });
  });

  test("a 5xx is retryable", async () => {
    fake = startFake(() => appError("web.incoming_webhook.post.app_error", "Failed to create post.", 500));
    expect(await mattermost.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Mattermost: Failed to create post. (web.incoming_webhook.post.app_error)",
      retryable: true,
    });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await mattermost.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const url = `http://127.0.0.1:${await closedPort()}${HOOK}`;
    expect(await mattermost.send({ url }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("mattermost validate", () => {
  const hook = `https://chat.example.com${HOOK}`;

  test("normalises: trims, drops unknown fields", () => {
    expect(mattermost.validate({ url: ` ${hook} `, channel: "town-square" })).toEqual({ ok: true, config: { url: hook } });
  });

  test("the spec's codes", () => {
    const code = (input: Record<string, unknown>) => {
      const result = mattermost.validate(input);
      return result.ok ? "ok" : result.error.code;
    };
    expect(code({})).toBe("WEBHOOK_URL_REQUIRED");
    expect(code({ url: " " })).toBe("WEBHOOK_URL_REQUIRED");
    expect(code({ url: "chat.example.com/hooks/abc" })).toBe("WEBHOOK_URL_INVALID");
    expect(code({ url: "https://chat.example.com/team/channels/town-square" })).toBe("WEBHOOK_URL_SHAPE");
    expect(code({ url: {} })).toBe("VALIDATION");
  });

  test("secrets, rate limit", () => {
    expect(mattermost.secretFields).toEqual(["url"]);
    expect(mattermost.perMinute).toBe(60);
  });
});
