import { afterEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { closedPort, context, EVENT, type Fake, MESSAGE, never, NOW, startFake } from "./test-fake";
import { webhook } from "./webhook";

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const url = () => `${fake!.url}/hooks/vigil?team=ops`;

describe("webhook send", () => {
  test("posts the message and its events as JSON, with a timestamp and no signature", async () => {
    fake = startFake(() => new Response(null, { status: 204 }));
    expect(await webhook.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/hooks/vigil?team=ops");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.headers["x-vigil-timestamp"]).toBe(String(NOW));
    expect(request.headers["x-vigil-signature"]).toBeUndefined();
    expect(request.json).toEqual({ title: MESSAGE.title, severity: "critical", lang: "en-US", lines: MESSAGE.lines, events: [EVENT] });
  });

  test("with a secret, X-Vigil-Signature is the HMAC-SHA256 of the exact bytes received", async () => {
    fake = startFake(() => new Response("accepted", { status: 202 }));
    const secret = "whsec_4f9a8b7c6d5e";
    expect(await webhook.send({ url: url(), secret }, MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    const expected = createHmac("sha256", secret).update(Buffer.from(request.body, "utf8")).digest("hex");
    expect(request.headers["x-vigil-signature"]).toBe(`sha256=${expected}`);
    expect(request.headers["x-vigil-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  test("a non-2xx answer is a failure with its status and body; 4xx final", async () => {
    fake = startFake(() => new Response("no such hook", { status: 404 }));
    expect(await webhook.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: false, error: "Webhook: HTTP 404: no such hook", retryable: false });
    fake.answer(() => new Response(null, { status: 401 }));
    expect(await webhook.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: false, error: "Webhook: HTTP 401", retryable: false });
  });

  test("a redirect is not followed (it would resend or drop the signed body)", async () => {
    fake = startFake((request) => (request.path.startsWith("/moved") ? new Response(null, { status: 204 }) : Response.redirect(`${fake!.url}/moved`, 307)));
    expect(await webhook.send({ url: url() }, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Webhook: HTTP 307 (redirect not followed)",
      retryable: false,
    });
    expect(fake.received).toHaveLength(1);
  });

  test("5xx and 429 are retryable, with Retry-After", async () => {
    fake = startFake(() => new Response("busy", { status: 503, headers: { "Retry-After": "120" } }));
    expect(await webhook.send({ url: url() }, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Webhook: HTTP 503: busy",
      retryable: true,
      retryAfterMs: 120_000,
    });
    fake.answer(() => new Response("slow down", { status: 429, headers: { "Retry-After": "1.5" } }));
    expect(await webhook.send({ url: url() }, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Webhook: HTTP 429: slow down",
      retryable: true,
      retryAfterMs: 1500,
    });
  });

  test("the secret never appears in an error", async () => {
    const secret = "whsec_4f9a8b7c6d5e";
    fake = startFake(() => new Response(`bad signature for ${secret}`, { status: 403 }));
    expect(await webhook.send({ url: url(), secret }, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Webhook: HTTP 403: bad signature for ••••",
      retryable: false,
    });
  });

  test("the URL's key and credentials never appear in an error, however the answer echoes them; its path may", async () => {
    fake = startFake((request) => new Response(`no hook at ${fake!.url}${request.path} (${request.headers.authorization}) for user:pw, key SECRETKEY123`, { status: 500 }));
    const keyed = `${fake.url.replace("//", "//user:pw@")}/hook?key=SECRETKEY123`;
    expect(await webhook.send({ url: keyed }, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: `Webhook: HTTP 500: no hook at ${fake.url}/hook•••• (Basic ••••) for ••••, key ••••`,
      retryable: true,
    });
    expect(fake.received[0].headers.authorization).toBe(`Basic ${btoa("user:pw")}`);
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await webhook.send({ url: url() }, MESSAGE, context(fake, { timeoutMs: 250 }))).toEqual({ ok: false, error: "timeout after 0.25 s", retryable: true });
    const closed = `http://user:pw@127.0.0.1:${await closedPort()}/hook?key=SECRETKEY123`;
    expect(await webhook.send({ url: closed }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("webhook validate", () => {
  test("normalises: trims, drops an empty secret and unknown fields", () => {
    expect(webhook.validate({ url: " https://example.com/hook ", secret: "  s3cret  ", method: "PUT" })).toEqual({
      ok: true,
      config: { url: "https://example.com/hook", secret: "s3cret" },
    });
    expect(webhook.validate({ url: "http://10.0.0.5:8080/hook", secret: "  " })).toEqual({ ok: true, config: { url: "http://10.0.0.5:8080/hook" } });
    expect(webhook.validate({ url: "http://10.0.0.5:8080/hook", secret: null })).toEqual({ ok: true, config: { url: "http://10.0.0.5:8080/hook" } });
  });

  test("the spec's codes and messages", () => {
    expect(webhook.validate({ secret: "x" })).toEqual({ ok: false, error: { code: "WEBHOOK_URL_REQUIRED", message: "Webhook URL is required" } });
    expect(webhook.validate({ url: "javascript:alert(1)" })).toEqual({
      ok: false,
      error: { code: "WEBHOOK_URL_INVALID", message: "Webhook URL must start with http:// or https://" },
    });
    expect(webhook.validate({ url: "http://exa mple.com/" })).toEqual({
      ok: false,
      error: { code: "WEBHOOK_URL_INVALID", message: "Webhook URL must start with http:// or https://" },
    });
  });

  test("wrong types are VALIDATION errors; a secret's value is not echoed", () => {
    expect(webhook.validate({ url: "https://example.com", secret: 123456 })).toEqual({
      ok: false,
      error: { code: "VALIDATION", message: "secret must be a string (got a number)" },
    });
    expect(webhook.validate({ url: ["https://example.com"] })).toEqual({ ok: false, error: { code: "VALIDATION", message: "url must be a string (got an array)" } });
    expect(webhook.validate(null as never)).toEqual({ ok: false, error: { code: "VALIDATION", message: "config must be an object (got null)" } });
  });

  test("secrets, rate limit", () => {
    expect(webhook.secretFields).toEqual(["url", "secret"]);
    expect(webhook.perMinute).toBe(60);
  });
});
