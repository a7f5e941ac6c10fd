import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { homeassistant } from "./homeassistant";
import { closedPort, context, EVENT, type Fake, MESSAGE, never, startFake } from "./test-fake";

const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJ2aWdpbCJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg";
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const DONE = () => Response.json([]);
const URGENT = { priority: "high", ttl: 0, push: { "interruption-level": "time-sensitive" } };

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = (extra: Partial<ChannelConfigs["homeassistant"]> = {}): ChannelConfigs["homeassistant"] => ({ server: fake!.url, accessToken: TOKEN, ...extra });

describe("homeassistant send", () => {
  test("POSTs /api/services/notify/notify with the bearer token: title, message, the phones' tag and urgency", async () => {
    fake = startFake(DONE);
    expect(await homeassistant.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/api/services/notify/notify");
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ title: MESSAGE.title, message: LINES, data: { group: "vigil", tag: "vigil-monitor-7", ...URGENT } });
  });

  test("a phone's own service: the recovery has the same tag (it replaces the down one) and no urgency", async () => {
    fake = startFake(DONE);
    await homeassistant.send(config({ service: "mobile_app_pixel_8" }), { ...MESSAGE, severity: "ok", events: [{ ...EVENT, kind: "recovery" }] }, context(fake));
    expect(fake.received[0].path).toBe("/api/services/notify/mobile_app_pixel_8");
    expect(fake.received[0].json).toEqual({ title: MESSAGE.title, message: LINES, data: { group: "vigil", tag: "vigil-monitor-7" } });
  });

  test("other services get the title and message alone; a grouped message has no tag; no lines: the title is the message", async () => {
    fake = startFake(DONE);
    await homeassistant.send(config({ service: "persistent_notification" }), MESSAGE, context(fake));
    await homeassistant.send(config({ service: "telegram_ops" }), { ...MESSAGE, lines: [] }, context(fake));
    await homeassistant.send(config(), { ...MESSAGE, severity: "info", events: [EVENT, EVENT] }, context(fake));
    expect(fake.received.map((r) => [r.path, r.json])).toEqual([
      ["/api/services/notify/persistent_notification", { title: MESSAGE.title, message: LINES }],
      ["/api/services/notify/telegram_ops", { message: MESSAGE.title }],
      ["/api/services/notify/notify", { title: MESSAGE.title, message: LINES, data: { group: "vigil" } }],
    ]);
  });

  test("a server under a path with a trailing slash", async () => {
    fake = startFake(DONE);
    await homeassistant.send(config({ server: `${fake.url}/ha/` }), MESSAGE, context(fake));
    expect(fake.received[0].path).toBe("/ha/api/services/notify/notify");
  });

  test("a 2xx that is no list of states is a failure; 400 is final with Home Assistant's message", async () => {
    fake = startFake(() => new Response("<html>Home Assistant</html>"));
    expect(await homeassistant.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Home Assistant: HTTP 200: <html>Home Assistant</html>", retryable: false });
    fake.answer(() => Response.json({ message: "Service notify.mobile_app_gone not found." }, { status: 400 }));
    expect(await homeassistant.send(config({ service: "mobile_app_gone" }), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Home Assistant: Service notify.mobile_app_gone not found.",
      retryable: false,
    });
  });

  test("401 is final, and the token never shows", async () => {
    fake = startFake(() => new Response(`401: Unauthorized (${TOKEN})`, { status: 401 }));
    expect(await homeassistant.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Home Assistant: HTTP 401: 401: Unauthorized (••••)", retryable: false });
  });

  test("429 with Retry-After is retryable after it; a 5xx is retryable", async () => {
    fake = startFake(() => new Response("", { status: 429, headers: { "Retry-After": "3" } }));
    expect(await homeassistant.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Home Assistant: HTTP 429", retryable: true, retryAfterMs: 3000 });
    fake.answer(() => Response.json({ message: "Internal Server Error" }, { status: 500 }));
    expect(await homeassistant.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Home Assistant: Internal Server Error", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await homeassistant.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const server = `http://127.0.0.1:${await closedPort()}`;
    expect(await homeassistant.send({ server, accessToken: TOKEN }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("homeassistant validate", () => {
  const good = { server: "http://homeassistant.local:8123", accessToken: TOKEN };
  const error = (input: Record<string, unknown>) => {
    const result = homeassistant.validate(input);
    return result.ok ? null : result.error;
  };
  const code = (input: Record<string, unknown>) => error(input)?.code ?? "ok";

  test("normalises: trims; the default service and a notify. prefix are dropped; unknown fields too", () => {
    expect(homeassistant.validate({ ...good, server: `${good.server}/`, accessToken: ` ${TOKEN} `, service: "notify", x: 1 })).toEqual({ ok: true, config: good });
    expect(homeassistant.validate({ ...good, service: " notify.mobile_app_pixel_8 " })).toEqual({ ok: true, config: { ...good, service: "mobile_app_pixel_8" } });
  });

  test("the server: required, http(s)", () => {
    expect(error({ ...good, server: undefined })).toEqual({ code: "HOMEASSISTANT_SERVER_INVALID", message: "Server URL is required" });
    expect(code({ ...good, server: "homeassistant.local:8123" })).toBe("HOMEASSISTANT_SERVER_INVALID");
  });

  test("the token: required, one word; never echoed", () => {
    expect(error({ ...good, accessToken: " " })).toEqual({ code: "HOMEASSISTANT_TOKEN_REQUIRED", message: "A long-lived access token is required" });
    expect(error({ ...good, accessToken: "a b" })).toEqual({ code: "VALIDATION", message: "accessToken must not contain spaces or non-ASCII characters" });
    expect(error({ ...good, accessToken: 1 })).toEqual({ code: "VALIDATION", message: "accessToken must be a string (got a number)" });
  });

  test("the service: a name", () => {
    const invalid = { code: "HOMEASSISTANT_SERVICE_INVALID", message: "The notify service is a name such as mobile_app_pixel_8 (lower-case letters, digits and _)" };
    expect(error({ ...good, service: "Mobile App" })).toEqual(invalid);
    expect(error({ ...good, service: "../config" })).toEqual(invalid);
  });

  test("secrets, rate limit, target", () => {
    expect(homeassistant.secretFields).toEqual(["accessToken"]);
    expect(homeassistant.perMinute).toBe(60);
    expect(homeassistant.target!(good)).toEqual({ url: good.server });
  });
});
