import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { sendgrid } from "./sendgrid";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const KEY = "SG.abcdefghijklmnopqrstuv.ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq";
const CONFIG: ChannelConfigs["sendgrid"] = { apiKey: KEY, from: "Vigil <ops@example.com>", to: ["a@example.com", "b@example.org"] };
const QUEUED = () => new Response(null, { status: 202, headers: { "X-Message-Id": "W6A2g1Z1Q0m3J2Z0c2Q1Yg" } });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

/** The fake stands in for api.sendgrid.com. */
const ctx = (overrides: Parameters<typeof context>[1] = {}) => context(fake!, { endpoints: { telegram: "", resend: "", sendgrid: fake!.url }, ...overrides });

describe("sendgrid send", () => {
  test("POSTs /v3/mail/send with the bearer key: recipients, sender with name, subject, text then escaped HTML", async () => {
    fake = startFake(QUEUED);
    expect(await sendgrid.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v3/mail/send");
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    const body = request.json as { personalizations: unknown; from: unknown; subject: string; content: { type: string; value: string }[] };
    expect(Object.keys(body)).toEqual(["personalizations", "from", "subject", "content"]);
    expect(body.personalizations).toEqual([{ to: [{ email: "a@example.com" }, { email: "b@example.org" }] }]);
    expect(body.from).toEqual({ email: "ops@example.com", name: "Vigil" });
    expect(body.subject).toBe(MESSAGE.title);
    expect(body.content.map((c) => c.type)).toEqual(["text/plain", "text/html"]);
    expect(body.content[0]!.value).toBe(`${MESSAGE.title}\n\n${MESSAGE.lines.join("\n")}`);
    expect(body.content[1]!.value).toContain(">🔴 Monitor down: Shop &lt;API&gt; &amp; co</h2>");
    expect(body.content[1]!.value).toContain("#dc2626");
  });

  test("a bare sender has no name; without an override the real host is used", async () => {
    const bodies: unknown[] = [];
    const urls: string[] = [];
    const recording = Object.assign(
      async (url: string | URL | Request, init?: RequestInit) => (urls.push(String(url)), bodies.push(JSON.parse(String(init?.body))), new Response(null, { status: 202 })),
      { preconnect: fetch.preconnect },
    );
    expect(await sendgrid.send({ ...CONFIG, from: "ops@example.com" }, MESSAGE, context(null, { fetch: recording as typeof fetch }))).toEqual({ ok: true });
    expect(urls).toEqual(["https://api.sendgrid.com/v3/mail/send"]);
    expect((bodies[0] as { from: unknown }).from).toEqual({ email: "ops@example.com" });
  });

  test("only 202 is a success: a 200 from a proxy is a failure", async () => {
    fake = startFake(() => new Response("<html>proxy</html>"));
    expect(await sendgrid.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "SendGrid: HTTP 200: <html>proxy</html>", retryable: false });
  });

  test("4xx is final with SendGrid's error messages; the key never shows", async () => {
    fake = startFake(() =>
      Response.json(
        { errors: [{ message: "The from address does not match a verified Sender Identity.", field: "from", help: null }, { message: `key ${KEY} lacks mail.send`, field: null }] },
        { status: 403 },
      ),
    );
    expect(await sendgrid.send(CONFIG, MESSAGE, ctx())).toEqual({
      ok: false,
      error: "SendGrid: The from address does not match a verified Sender Identity.; key •••• lacks mail.send",
      retryable: false,
    });
  });

  test("429 with Retry-After is retryable after it; a 5xx is retryable", async () => {
    fake = startFake(() => Response.json({ errors: [{ message: "too many requests" }] }, { status: 429, headers: { "Retry-After": "10" } }));
    expect(await sendgrid.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "SendGrid: too many requests", retryable: true, retryAfterMs: 10_000 });
    fake.answer(() => new Response("", { status: 503 }));
    expect(await sendgrid.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "SendGrid: HTTP 503", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await sendgrid.send(CONFIG, MESSAGE, ctx({ timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}`;
    expect(await sendgrid.send(CONFIG, MESSAGE, context(null, { endpoints: { telegram: "", resend: "", sendgrid: closed } }))).toEqual({
      ok: false,
      error: "connection refused",
      retryable: true,
    });
  });
});

describe("sendgrid validate", () => {
  const error = (input: Record<string, unknown>) => {
    const result = sendgrid.validate(input);
    return result.ok ? null : result.error;
  };

  test("normalises: trims, splits the recipients, drops unknown fields", () => {
    expect(sendgrid.validate({ apiKey: ` ${KEY} `, from: " Vigil <ops@example.com> ", to: "a@example.com; b@example.org", cc: "x" })).toEqual({ ok: true, config: CONFIG });
  });

  test("the e-mail channels' codes: key, sender, recipients", () => {
    expect(error({ from: "ops@example.com", to: "a@example.com" })).toEqual({ code: "API_KEY_REQUIRED", message: "API Key is required" });
    expect(error({ apiKey: "SG.a b", from: "ops@example.com", to: "a@example.com" })).toEqual({ code: "VALIDATION", message: "apiKey must not contain spaces or non-ASCII characters" });
    expect(error({ apiKey: KEY, to: "a@example.com" })).toEqual({ code: "SENDER_REQUIRED", message: "Sender is required" });
    expect(error({ apiKey: KEY, from: "ops", to: "a@example.com" })).toEqual({ code: "SENDER_INVALID", message: "Invalid sender format" });
    expect(error({ apiKey: KEY, from: "ops@example.com" })).toEqual({ code: "RECIPIENT_REQUIRED", message: "Recipient is required" });
    expect(error({ apiKey: KEY, from: "ops@example.com", to: "nope" })).toEqual({ code: "RECIPIENT_INVALID", message: "Invalid recipient address" });
  });

  test("secrets, rate limit, no user URL", () => {
    expect(sendgrid.secretFields).toEqual(["apiKey"]);
    expect(sendgrid.perMinute).toBe(120);
    expect(sendgrid.target).toBeUndefined();
  });
});
