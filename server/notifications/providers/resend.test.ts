import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { resend } from "./resend";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const KEY = "re_123456789_AbCdEfGhIjKlMnOpQrStUvWx";
const CONFIG: ChannelConfigs["resend"] = { apiKey: KEY, from: "Vigil <ops@example.com>", to: ["a@example.com", "b@example.org"] };

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

describe("resend send", () => {
  test("posts /emails with the bearer key, text and escaped HTML", async () => {
    fake = startFake(() => Response.json({ id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" }));
    expect(await resend.send(CONFIG, MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/emails");
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    const body = request.json as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["from", "html", "subject", "text", "to"]);
    expect(body.from).toBe("Vigil <ops@example.com>");
    expect(body.to).toEqual(["a@example.com", "b@example.org"]);
    expect(body.subject).toBe("🔴 Monitor down: Shop <API> & co");
    expect(body.text).toBe(`🔴 Monitor down: Shop <API> & co\n\n${MESSAGE.lines.join("\n")}`);
    const html = body.html as string;
    expect(html).toContain(">🔴 Monitor down: Shop &lt;API&gt; &amp; co</h2>");
    expect(html).toContain(">URL: https://shop.example.com/health?a=1&amp;b=2</p>");
    expect(html).toContain("#dc2626");
    expect(html).not.toContain("<API>");
  });

  test("an API base with a trailing slash", async () => {
    fake = startFake(() => Response.json({ id: "x" }));
    await resend.send(CONFIG, MESSAGE, context(null, { endpoints: { telegram: "", resend: `${fake.url}/` } }));
    expect(fake.received[0].path).toBe("/emails");
  });

  test("Resend's 4xx error JSON is a final failure with its message; the key never shows", async () => {
    fake = startFake(() => Response.json({ statusCode: 401, name: "missing_api_key", message: `API key is invalid: ${KEY}` }, { status: 401 }));
    expect(await resend.send(CONFIG, MESSAGE, context(fake))).toEqual({ ok: false, error: "Resend: API key is invalid: ••••", retryable: false });
    fake.answer(() =>
      Response.json({ statusCode: 403, name: "validation_error", message: "The example.com domain is not verified." }, { status: 403 }),
    );
    expect(await resend.send(CONFIG, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Resend: The example.com domain is not verified.",
      retryable: false,
    });
  });

  test("429 with Retry-After is retryable after it; 500 retryable", async () => {
    fake = startFake(() =>
      Response.json({ statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests." }, { status: 429, headers: { "retry-after": "1" } }),
    );
    expect(await resend.send(CONFIG, MESSAGE, context(fake))).toEqual({ ok: false, error: "Resend: Too many requests.", retryable: true, retryAfterMs: 1000 });
    fake.answer(() => Response.json({ statusCode: 500, name: "internal_server_error", message: "Unexpected error" }, { status: 500 }));
    expect(await resend.send(CONFIG, MESSAGE, context(fake))).toEqual({ ok: false, error: "Resend: Unexpected error", retryable: true });
  });

  test("a 2xx without an id is not a success", async () => {
    fake = startFake(() => new Response("<html>proxy</html>", { status: 200 }));
    expect(await resend.send(CONFIG, MESSAGE, context(fake))).toEqual({ ok: false, error: "Resend: HTTP 200: <html>proxy</html>", retryable: false });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await resend.send(CONFIG, MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = { url: `http://127.0.0.1:${await closedPort()}` };
    expect(await resend.send(CONFIG, MESSAGE, context(closed))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("resend validate", () => {
  const error = (config: Record<string, unknown>) => {
    const checked = resend.validate(config);
    return checked.ok ? null : checked.error;
  };
  const valid = { apiKey: KEY, from: "ops@example.com", to: ["a@example.com"] };

  test("normalises: trims, splits `to`, drops unknown fields", () => {
    expect(resend.validate({ apiKey: ` ${KEY} `, from: "  Vigil   Alerts   <ops@example.com> ", to: "a@example.com, b@example.org;c@x.io  d@y.dev", cc: "x" })).toEqual({
      ok: true,
      config: { apiKey: KEY, from: "Vigil   Alerts <ops@example.com>", to: ["a@example.com", "b@example.org", "c@x.io", "d@y.dev"] },
    });
    expect(resend.validate({ ...valid, to: [" a@example.com ", "b@example.org,c@x.io", "a@example.com"] })).toEqual({
      ok: true,
      config: { apiKey: KEY, from: "ops@example.com", to: ["a@example.com", "b@example.org", "c@x.io"] },
    });
    expect(resend.validate({ ...valid, from: '"Ops Team" <ops@example.com>' })).toEqual({
      ok: true,
      config: { apiKey: KEY, from: '"Ops Team" <ops@example.com>', to: ["a@example.com"] },
    });
  });

  test("the spec's codes and messages, first problem first", () => {
    expect(error({})).toEqual({ code: "API_KEY_REQUIRED", message: "API Key is required" });
    expect(error({ apiKey: " ", from: "bad" })).toEqual({ code: "API_KEY_REQUIRED", message: "API Key is required" });
    expect(error({ apiKey: KEY })).toEqual({ code: "SENDER_REQUIRED", message: "Sender is required" });
    expect(error({ apiKey: KEY, from: "  " })).toEqual({ code: "SENDER_REQUIRED", message: "Sender is required" });
    for (const from of ["ops", "ops@example", "Vigil ops@example.com", "<ops@example.com>", "Vigil <ops@example.com", "a@b.c d", "Vigil <ops@example.com> x"]) {
      expect([from, error({ apiKey: KEY, from })]).toEqual([from, { code: "SENDER_INVALID", message: "Invalid sender format" }]);
    }
    expect(error({ apiKey: KEY, from: "ops@example.com" })).toEqual({ code: "RECIPIENT_REQUIRED", message: "Recipient is required" });
    expect(error({ ...valid, to: " ,; " })).toEqual({ code: "RECIPIENT_REQUIRED", message: "Recipient is required" });
    expect(error({ ...valid, to: [] })).toEqual({ code: "RECIPIENT_REQUIRED", message: "Recipient is required" });
    expect(error({ ...valid, to: "a@example.com, nope" })).toEqual({ code: "RECIPIENT_INVALID", message: "Invalid recipient address" });
    expect(error({ ...valid, to: ["Name <a@example.com>"] })).toEqual({ code: "RECIPIENT_INVALID", message: "Invalid recipient address" });
    const many = Array.from({ length: 51 }, (_, i) => `u${i}@example.com`);
    expect(error({ ...valid, to: many })).toEqual({ code: "RECIPIENT_INVALID", message: "Invalid recipient address" });
    expect(resend.validate({ ...valid, to: many.slice(0, 50) }).ok).toBe(true);
  });

  test("wrong types are VALIDATION errors naming the field and what was sent", () => {
    expect(error({ ...valid, apiKey: 12 })).toEqual({ code: "VALIDATION", message: "apiKey must be a string (got a number)" });
    expect(error({ ...valid, from: false })).toEqual({ code: "VALIDATION", message: "from must be a string (got boolean false)" });
    expect(error({ ...valid, to: 42 })).toEqual({ code: "VALIDATION", message: "to must be an array of addresses or a string (got number 42)" });
    expect(error({ ...valid, to: ["a@example.com", 7] })).toEqual({ code: "VALIDATION", message: "to[1] must be a string (got number 7)" });
  });

  test("secrets, rate limit", () => {
    expect(resend.secretFields).toEqual(["apiKey"]);
    expect(resend.perMinute).toBe(120);
  });
});
