import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { apprise } from "./apprise";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const URLS = "tgram://123456789:AAEabcdefghij/-1001234567890 mailto://ops:S3cretPassw0rd@mail.example.com?to=a@x.io,b@y.io";
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const SENT = () => Response.json({ error: null, details: [["INFO", "2026-11-23 03:02:03,456", "Sent Telegram notification."]] });
const FAILED = (detail: string) =>
  Response.json({ error: "One or more notification could not be sent", details: [["INFO", "t", "Loaded 2 entries"], ["ERROR", "t", detail]] }, { status: 424 });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const stateless = (): ChannelConfigs["apprise"] => ({ server: fake!.url, urls: URLS });
const stored = (extra: Partial<ChannelConfigs["apprise"]> = {}): ChannelConfigs["apprise"] => ({ server: fake!.url, key: "vigil-ops", ...extra });

describe("apprise send", () => {
  test("stateless: POSTs /notify/ with the URLs, title, body, type failure for critical, text format, asking for JSON", async () => {
    fake = startFake(SENT);
    expect(await apprise.send(stateless(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/notify/");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ urls: URLS, title: MESSAGE.title, body: LINES, type: "failure", format: "text" });
  });

  test("a stored configuration: POSTs /notify/{key} without URLs, with the tag; ok is success, info is info", async () => {
    fake = startFake(SENT);
    await apprise.send(stored({ tag: "devops, admin" }), { ...MESSAGE, severity: "ok" }, context(fake));
    await apprise.send(stored(), { ...MESSAGE, severity: "info", lines: [] }, context(fake));
    expect(fake.received.map((r) => [r.path, r.json])).toEqual([
      ["/notify/vigil-ops", { title: MESSAGE.title, body: LINES, type: "success", format: "text", tag: "devops, admin" }],
      ["/notify/vigil-ops", { body: MESSAGE.title, type: "info", format: "text" }],
    ]);
  });

  test("a server under a path with a trailing slash; an older server's {} is a success too", async () => {
    fake = startFake(() => Response.json({}));
    expect(await apprise.send({ ...stored(), server: `${fake.url}/apprise/` }, MESSAGE, context(fake))).toEqual({ ok: true });
    expect(fake.received[0].path).toBe("/apprise/notify/vigil-ops");
  });

  test("424: final, with Apprise's error and the first error it logged; the URLs' keys and hosts never show", async () => {
    fake = startFake(() => FAILED("Failed to send to mailto://ops:S3cretPassw0rd@mail.example.com: 535 authentication failed"));
    expect(await apprise.send(stateless(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Apprise API: One or more notification could not be sent: Failed to send to mailto://ops:••••@••••: 535 authentication failed",
      retryable: false,
    });
  });

  test("204 (nothing under the key, or no URL with the tag) is a final failure that says so", async () => {
    fake = startFake(() => new Response(null, { status: 204 }));
    expect(await apprise.send(stored({ tag: "nobody" }), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Apprise API: nothing was notified (no configuration under this key, no valid Apprise URL, or none with the tag)",
      retryable: false,
    });
  });

  test("a 200 that is no Apprise API answer is a failure; 400 is final with its error", async () => {
    fake = startFake(() => new Response("<html>proxy</html>"));
    expect(await apprise.send(stored(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Apprise API: HTTP 200: <html>proxy</html>", retryable: false });
    fake.answer(() => Response.json({ error: "An invalid payload was specified" }, { status: 400 }));
    expect(await apprise.send(stored(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Apprise API: An invalid payload was specified", retryable: false });
  });

  test("429 with Retry-After is retryable after it; a 5xx is retryable", async () => {
    fake = startFake(() => new Response("slow down", { status: 429, headers: { "Retry-After": "30" } }));
    expect(await apprise.send(stored(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Apprise API: HTTP 429: slow down", retryable: true, retryAfterMs: 30_000 });
    fake.answer(() => new Response("Bad Gateway", { status: 502 }));
    expect(await apprise.send(stored(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Apprise API: HTTP 502: Bad Gateway", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await apprise.send(stored(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const server = `http://127.0.0.1:${await closedPort()}`;
    expect(await apprise.send({ server, key: "k" }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("apprise validate", () => {
  const server = "https://apprise.example.com";
  const error = (input: Record<string, unknown>) => {
    const result = apprise.validate(input);
    return result.ok ? null : result.error;
  };
  const code = (input: Record<string, unknown>) => error(input)?.code ?? "ok";

  test("normalises: trims, drops the trailing slash, blank optionals and unknown fields", () => {
    expect(apprise.validate({ server: ` ${server}/ `, urls: ` ${URLS} `, key: " ", tag: "", title: "x" })).toEqual({ ok: true, config: { server, urls: URLS } });
    expect(apprise.validate({ server, key: " ops_1 ", tag: " devops admin " })).toEqual({ ok: true, config: { server, key: "ops_1", tag: "devops admin" } });
  });

  test("the server: required, http(s), no credentials or query", () => {
    expect(error({ key: "k" })).toEqual({ code: "APPRISE_SERVER_INVALID", message: "Server URL is required" });
    expect(error({ server: "apprise:8000", key: "k" })).toEqual({ code: "APPRISE_SERVER_INVALID", message: "Server URL must start with http:// or https://" });
    expect(code({ server: `${server}/?x=1`, key: "k" })).toBe("APPRISE_SERVER_INVALID");
  });

  test("URLs or a key, not both and not neither; their shapes; a tag only with a key", () => {
    expect(error({ server })).toEqual({ code: "APPRISE_TARGET_REQUIRED", message: "Apprise URLs or a configuration key are required" });
    expect(error({ server, urls: URLS, key: "k" })).toEqual({ code: "VALIDATION", message: "Use either Apprise URLs or a configuration key, not both" });
    expect(error({ server, urls: "just words" })).toEqual({ code: "APPRISE_URLS_INVALID", message: "Apprise URLs look like tgram://bottoken/chatid, separated by spaces" });
    expect(code({ server, urls: `tgram://x/${"y".repeat(8200)}` })).toBe("APPRISE_URLS_INVALID");
    expect(error({ server, key: "my key" })).toEqual({ code: "APPRISE_KEY_INVALID", message: "The configuration key is 1-128 letters, digits, - or _" });
    expect(code({ server, key: "k".repeat(129) })).toBe("APPRISE_KEY_INVALID");
    expect(error({ server, urls: URLS, tag: "devops" })).toEqual({ code: "VALIDATION", message: "A tag selects URLs of a stored configuration: it needs a configuration key" });
    expect(error({ server, key: "k", tag: "a;b" })).toEqual({ code: "VALIDATION", message: "tag must be words separated by commas (either) or spaces (both)" });
    expect(error({ server, urls: 5 })).toEqual({ code: "VALIDATION", message: "urls must be a string (got a number)" });
  });

  test("secrets, rate limit, target", () => {
    expect(apprise.secretFields).toEqual(["urls", "key"]);
    expect(apprise.perMinute).toBe(30);
    expect(apprise.target!({ server, key: "k" })).toEqual({ url: server });
  });
});
