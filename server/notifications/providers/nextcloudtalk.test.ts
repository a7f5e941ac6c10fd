import { afterEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import type { ChannelConfigs } from "../public";
import { nextcloudtalk, talkSignature } from "./nextcloudtalk";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const SECRET = "a7f3c9e1b5d2846f0e3a9c7b1d5f2e8a4c6b0d9e3f7a1c5b";
const TEXT = `${MESSAGE.title}\nURL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)`;
const POSTED = () => new Response(null, { status: 201 });
const ocs = (status: number, message: string) => Response.json({ ocs: { meta: { status: "failure", statuscode: status, message }, data: [] } }, { status });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = (extra: Partial<ChannelConfigs["nextcloudtalk"]> = {}): ChannelConfigs["nextcloudtalk"] => ({ server: fake!.url, conversationToken: "abc123de", botSecret: SECRET, ...extra });

describe("nextcloudtalk send", () => {
  test("POSTs the message to the bot endpoint, signed: random, HMAC-SHA256(secret, random + message), OCS-APIRequest", async () => {
    fake = startFake(POSTED);
    expect(await nextcloudtalk.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/ocs/v2.php/apps/spreed/api/v1/bot/abc123de/message");
    expect(request.headers["ocs-apirequest"]).toBe("true");
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ message: TEXT });
    const random = request.headers["x-nextcloud-talk-bot-random"]!;
    expect(random).toMatch(/^[0-9a-f]{64}$/);
    const expected = createHmac("sha256", SECRET).update(random + TEXT).digest("hex");
    expect(request.headers["x-nextcloud-talk-bot-signature"]).toBe(expected);
  });

  test("each request has its own random string; the signature covers the message, not the JSON around it", async () => {
    fake = startFake(POSTED);
    await nextcloudtalk.send(config(), MESSAGE, context(fake));
    await nextcloudtalk.send(config(), MESSAGE, context(fake));
    const [a, b] = fake.received.map((r) => r.headers["x-nextcloud-talk-bot-random"]);
    expect(a).not.toBe(b);
    expect(talkSignature("secret", "r", "hi")).toBe(createHmac("sha256", "secret").update("rhi").digest("hex"));
  });

  test("a server under a path with a trailing slash; the message is cut to 32 000 characters", async () => {
    fake = startFake(POSTED);
    await nextcloudtalk.send(config({ server: `${fake.url}/nextcloud/` }), { ...MESSAGE, title: "t", lines: ["m".repeat(40_000)] }, context(fake));
    expect(fake.received[0].path).toBe("/nextcloud/ocs/v2.php/apps/spreed/api/v1/bot/abc123de/message");
    expect((fake.received[0].json as { message: string }).message).toBe(`t\n${"m".repeat(31_997)}…`);
  });

  test("only 201 is a success: a 200 (a login page) is a failure", async () => {
    fake = startFake(() => new Response("<html>Nextcloud</html>"));
    expect(await nextcloudtalk.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Nextcloud Talk: HTTP 200: <html>Nextcloud</html>", retryable: false });
  });

  test("401 and 404 are final, saying what they mean; an OCS message is used when there is one", async () => {
    fake = startFake(() => new Response(null, { status: 401 }));
    expect(await nextcloudtalk.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Nextcloud Talk: HTTP 401 (the bot secret is wrong, or the bot is not enabled in this conversation)",
      retryable: false,
    });
    fake.answer(() => new Response(null, { status: 404 }));
    expect(await nextcloudtalk.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Nextcloud Talk: HTTP 404 (no conversation with this token)", retryable: false });
    fake.answer(() => ocs(400, "Message is empty"));
    expect(await nextcloudtalk.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Nextcloud Talk: Message is empty", retryable: false });
  });

  test("429 with Retry-After is retryable after it; a 5xx is retryable; the secret never shows", async () => {
    fake = startFake(() => new Response(null, { status: 429, headers: { "Retry-After": "30" } }));
    expect(await nextcloudtalk.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Nextcloud Talk: HTTP 429", retryable: true, retryAfterMs: 30_000 });
    fake.answer(() => ocs(503, `Maintenance (${SECRET})`));
    expect(await nextcloudtalk.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Nextcloud Talk: Maintenance (••••)", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await nextcloudtalk.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const server = `http://127.0.0.1:${await closedPort()}`;
    expect(await nextcloudtalk.send({ server, conversationToken: "abc123de", botSecret: SECRET }, MESSAGE, context(null))).toEqual({
      ok: false,
      error: "connection refused",
      retryable: true,
    });
  });
});

describe("nextcloudtalk validate", () => {
  const good = { server: "https://cloud.example.com", conversationToken: "abc123de", botSecret: SECRET };
  const error = (input: Record<string, unknown>) => {
    const result = nextcloudtalk.validate(input);
    return result.ok ? null : result.error;
  };
  const code = (input: Record<string, unknown>) => error(input)?.code ?? "ok";

  test("normalises: trims, drops the trailing slash and unknown fields", () => {
    expect(nextcloudtalk.validate({ server: "https://cloud.example.com/ ", conversationToken: " abc123de ", botSecret: ` ${SECRET} `, silent: true })).toEqual({ ok: true, config: good });
  });

  test("the server, the conversation token, the secret", () => {
    expect(error({ ...good, server: "" })).toEqual({ code: "NEXTCLOUDTALK_SERVER_INVALID", message: "Server URL is required" });
    expect(code({ ...good, server: "cloud.example.com" })).toBe("NEXTCLOUDTALK_SERVER_INVALID");
    expect(error({ ...good, conversationToken: "" })).toEqual({ code: "NEXTCLOUDTALK_TOKEN_INVALID", message: "The conversation token is required" });
    const invalid = { code: "NEXTCLOUDTALK_TOKEN_INVALID", message: "The conversation token is the end of the conversation's link (…/call/abc123de): letters and digits" };
    expect(error({ ...good, conversationToken: "https://cloud.example.com/call/abc123de" })).toEqual(invalid);
    expect(error({ ...good, conversationToken: "ab/../x" })).toEqual(invalid);
    expect(error({ ...good, botSecret: " " })).toEqual({ code: "NEXTCLOUDTALK_SECRET_REQUIRED", message: "The bot's secret is required" });
    expect(error({ ...good, botSecret: 4 })).toEqual({ code: "VALIDATION", message: "botSecret must be a string (got a number)" });
  });

  test("secrets, rate limit, target", () => {
    expect(nextcloudtalk.secretFields).toEqual(["botSecret"]);
    expect(nextcloudtalk.perMinute).toBe(60);
    expect(nextcloudtalk.target!(good)).toEqual({ url: good.server });
  });
});
