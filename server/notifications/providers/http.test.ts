import { afterEach, describe, expect, test } from "bun:test";
import { MAX_ANSWER_BYTES, networkError, parseRetryAfter, postJson, redact, urlSecrets } from "./http";
import { context, type Fake, NOW, startFake } from "./test-fake";

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

describe("postJson", () => {
  test("reads at most 64 KB of an answer", async () => {
    fake = startFake(() => new Response("x".repeat(MAX_ANSWER_BYTES * 4)));
    const sent = await postJson(context(fake), `${fake.url}/big`, { a: 1 });
    expect(sent.ok).toBe(true);
    if (sent.ok) {
      expect(sent.answer.text.length).toBe(MAX_ANSWER_BYTES);
      expect(sent.answer.json).toBeUndefined();
    }
  });

  test("sends a string body as is and an object as JSON, with the extra headers", async () => {
    fake = startFake(() => Response.json({ fine: true }));
    await postJson(context(fake), `${fake.url}/a`, '{"raw":1}', { headers: { "X-Test": "1" } });
    await postJson(context(fake), `${fake.url}/b`, { raw: 2 });
    expect(fake.received.map((r) => r.body)).toEqual(['{"raw":1}', '{"raw":2}']);
    expect(fake.received[0].headers["x-test"]).toBe("1");
  });

  test("a body that stalls after the headers times out as well", async () => {
    fake = startFake(() => new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("{")) })));
    expect(await postJson(context(fake, { timeoutMs: 200 }), `${fake.url}/stall`, {})).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
  });
});

describe("parseRetryAfter", () => {
  test("seconds or an HTTP date, relative to now", () => {
    expect(parseRetryAfter("120", NOW)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", NOW)).toBe(0);
    expect(parseRetryAfter("2.5", NOW)).toBe(2500);
    // HTTP dates have whole seconds; NOW has 456 ms.
    expect(parseRetryAfter(new Date(NOW - 456 + 60_000).toUTCString(), NOW)).toBe(59_544);
    expect(parseRetryAfter(new Date(NOW - 60_000).toUTCString(), NOW)).toBe(0);
  });

  test("absent or unreadable is undefined", () => {
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
    expect(parseRetryAfter("", NOW)).toBeUndefined();
    expect(parseRetryAfter("soon", NOW)).toBeUndefined();
    expect(parseRetryAfter("-5", NOW)).toBeUndefined();
  });
});

describe("error text", () => {
  test("network errors become fixed phrases without the URL", () => {
    const withUrl = (code: string) => Object.assign(new TypeError("failed http://x/?key=SECRET"), { code, path: "http://x/?key=SECRET" });
    expect(networkError(withUrl("ECONNREFUSED"), 5000)).toBe("connection refused");
    expect(networkError(withUrl("ENOTFOUND"), 5000)).toBe("host not found");
    expect(networkError(withUrl("ECONNRESET"), 5000)).toBe("connection reset");
    expect(networkError(withUrl("CERT_HAS_EXPIRED"), 5000)).toBe("TLS error (CERT_HAS_EXPIRED)");
    expect(networkError(withUrl("Whatever"), 5000)).toBe("request failed (Whatever)");
    expect(networkError(new Error("boom http://x/?key=SECRET"), 5000)).toBe("request failed");
    expect(networkError(new DOMException("The operation timed out.", "TimeoutError"), 10_000)).toBe("timeout after 10 s");
  });

  test("redact replaces every secret, longest first", () => {
    const url = "https://oapi.dingtalk.com/robot/send?access_token=0f1e2d3c4b5a6978";
    expect(redact(`bad ${url} and 0f1e2d3c4b5a6978 twice 0f1e2d3c4b5a6978`, urlSecrets(url))).toBe("bad •••• and •••• twice ••••");
  });
});
