import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { brevo } from "./brevo";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const KEY = "xkeysib-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef-AbCdEfGhIjKlMnOp";
const CONFIG: ChannelConfigs["brevo"] = { apiKey: KEY, from: "Vigil <ops@example.com>", to: ["a@example.com", "b@example.org"] };
const CREATED = () => Response.json({ messageId: "<202611230302.12345678901@smtp-relay.mailin.fr>" }, { status: 201 });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

/** The fake stands in for api.brevo.com. */
const ctx = (overrides: Parameters<typeof context>[1] = {}) => context(fake!, { endpoints: { telegram: "", resend: "", brevo: fake!.url }, ...overrides });

describe("brevo send", () => {
  test("POSTs /v3/smtp/email with the api-key header: sender with name, recipients, subject, HTML and text", async () => {
    fake = startFake(CREATED);
    expect(await brevo.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v3/smtp/email");
    expect(request.headers["api-key"]).toBe(KEY);
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    const body = request.json as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["sender", "to", "subject", "htmlContent", "textContent"]);
    expect(body.sender).toEqual({ email: "ops@example.com", name: "Vigil" });
    expect(body.to).toEqual([{ email: "a@example.com" }, { email: "b@example.org" }]);
    expect(body.subject).toBe(MESSAGE.title);
    expect(body.textContent).toBe(`${MESSAGE.title}\n\n${MESSAGE.lines.join("\n")}`);
    expect(body.htmlContent).toContain(">🔴 Monitor down: Shop &lt;API&gt; &amp; co</h2>");
    expect(body.htmlContent).toContain("#dc2626");
  });

  test("a recovery is green; without an override the real host is used", async () => {
    fake = startFake(CREATED);
    await brevo.send(CONFIG, { ...MESSAGE, severity: "ok" }, ctx());
    expect((fake.received[0].json as { htmlContent: string }).htmlContent).toContain("#16a34a");
    const urls: string[] = [];
    const recording = Object.assign(async (url: string | URL | Request) => (urls.push(String(url)), Response.json({ messageId: "<x>" }, { status: 201 })), {
      preconnect: fetch.preconnect,
    });
    expect(await brevo.send(CONFIG, MESSAGE, context(null, { fetch: recording as typeof fetch }))).toEqual({ ok: true });
    expect(urls).toEqual(["https://api.brevo.com/v3/smtp/email"]);
  });

  test("a 2xx without a messageId is a failure", async () => {
    fake = startFake(() => new Response("<html>proxy</html>"));
    expect(await brevo.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Brevo: HTTP 200: <html>proxy</html>", retryable: false });
  });

  test("4xx is final with Brevo's message and code; the key never shows", async () => {
    fake = startFake(() => Response.json({ code: "unauthorized", message: `Key not found: ${KEY}` }, { status: 401 }));
    expect(await brevo.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Brevo: Key not found: •••• (unauthorized)", retryable: false });
    fake.answer(() => Response.json({ code: "invalid_parameter", message: "sender is invalid / inactive" }, { status: 400 }));
    expect(await brevo.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Brevo: sender is invalid / inactive (invalid_parameter)", retryable: false });
  });

  test("429 with Retry-After is retryable after it; a 5xx is retryable", async () => {
    fake = startFake(() => Response.json({ code: "too_many_requests", message: "Too many requests" }, { status: 429, headers: { "Retry-After": "4" } }));
    expect(await brevo.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Brevo: Too many requests (too_many_requests)", retryable: true, retryAfterMs: 4000 });
    fake.answer(() => new Response("", { status: 500 }));
    expect(await brevo.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Brevo: HTTP 500", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await brevo.send(CONFIG, MESSAGE, ctx({ timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}`;
    expect(await brevo.send(CONFIG, MESSAGE, context(null, { endpoints: { telegram: "", resend: "", brevo: closed } }))).toEqual({
      ok: false,
      error: "connection refused",
      retryable: true,
    });
  });
});

describe("brevo validate", () => {
  const error = (input: Record<string, unknown>) => {
    const result = brevo.validate(input);
    return result.ok ? null : result.error;
  };

  test("normalises: trims, splits the recipients, drops unknown fields", () => {
    expect(brevo.validate({ apiKey: ` ${KEY} `, from: "Vigil <ops@example.com>", to: ["a@example.com", "b@example.org, a@example.com"], bcc: "x" })).toEqual({ ok: true, config: CONFIG });
  });

  test("the e-mail channels' codes: key, sender, recipients", () => {
    expect(error({ from: "ops@example.com", to: "a@example.com" })).toEqual({ code: "API_KEY_REQUIRED", message: "API Key is required" });
    expect(error({ apiKey: KEY, from: "<ops@example.com>", to: "a@example.com" })).toEqual({ code: "SENDER_INVALID", message: "Invalid sender format" });
    expect(error({ apiKey: KEY, from: "ops@example.com", to: [] })).toEqual({ code: "RECIPIENT_REQUIRED", message: "Recipient is required" });
    expect(error({ apiKey: 7, from: "ops@example.com", to: "a@example.com" })).toEqual({ code: "VALIDATION", message: "apiKey must be a string (got a number)" });
  });

  test("secrets, rate limit, no user URL", () => {
    expect(brevo.secretFields).toEqual(["apiKey"]);
    expect(brevo.perMinute).toBe(120);
    expect(brevo.target).toBeUndefined();
  });
});
