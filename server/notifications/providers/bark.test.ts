import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { bark } from "./bark";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const KEY = "NtTxGmK7cTqcYtLV9hQm8P";
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const PUSHED = () => Response.json({ code: 200, message: "success", timestamp: 1700000000 });
const barkError = (status: number, message: string, headers: Record<string, string> = {}) =>
  Response.json({ code: status, message, timestamp: 1700000000 }, { status, headers });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = (extra: Partial<ChannelConfigs["bark"]> = {}): ChannelConfigs["bark"] => ({ server: fake!.url, deviceKey: KEY, ...extra });

describe("bark send", () => {
  test("POSTs /push with the device key, title, lines and time-sensitive level for critical", async () => {
    fake = startFake(PUSHED);
    expect(await bark.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/push");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ device_key: KEY, title: MESSAGE.title, body: LINES, level: "timeSensitive" });
  });

  test("ok and info are active; the configured level and group win", async () => {
    fake = startFake(PUSHED);
    await bark.send(config(), { ...MESSAGE, severity: "ok" }, context(fake));
    await bark.send(config(), { ...MESSAGE, severity: "info" }, context(fake));
    await bark.send(config({ level: "critical", group: "Vigil" }), { ...MESSAGE, severity: "ok" }, context(fake));
    expect(fake.received.map((r) => r.json)).toMatchObject([{ level: "active" }, { level: "active" }, { level: "critical", group: "Vigil" }]);
  });

  test("a server under a path with a trailing slash; no lines: the title is the body", async () => {
    fake = startFake(PUSHED);
    await bark.send(config({ server: `${fake.url}/bark/` }), { ...MESSAGE, lines: [] }, context(fake));
    expect(fake.received[0].path).toBe("/bark/push");
    expect(fake.received[0].json).toEqual({ device_key: KEY, body: MESSAGE.title, level: "timeSensitive" });
  });

  test("the title is cut to 200 characters and the body to 3000 bytes, within APNs' 4 KB", async () => {
    fake = startFake(PUSHED);
    await bark.send(config(), { ...MESSAGE, title: "t".repeat(300), lines: ["界".repeat(2000)] }, context(fake));
    const sent = fake.received[0].json as { title: string; body: string };
    expect(sent.title).toBe(`${"t".repeat(199)}…`);
    expect(sent.body).toBe(`${"界".repeat(999)}…`);
  });

  test("a 200 whose code is not 200 is a failure", async () => {
    fake = startFake(() => Response.json({ code: 400, message: "push failed: BadDeviceToken" }));
    expect(await bark.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Bark: push failed: BadDeviceToken (400)", retryable: false });
    fake.answer(() => new Response("<html>nginx</html>"));
    expect(await bark.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Bark: HTTP 200: <html>nginx</html>", retryable: false });
  });

  test("400 is final with Bark's message, and the device key never shows", async () => {
    fake = startFake(() => barkError(400, `failed to get device token: failed to get [${KEY}] device token from database`));
    expect(await bark.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Bark: failed to get device token: failed to get [••••] device token from database (400)",
      retryable: false,
    });
  });

  test("429 with Retry-After is retryable after it", async () => {
    fake = startFake(() => barkError(429, "too many requests", { "Retry-After": "2" }));
    expect(await bark.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Bark: too many requests (429)", retryable: true, retryAfterMs: 2000 });
  });

  test("a 5xx is retryable", async () => {
    fake = startFake(() => barkError(500, "push failed: apns unavailable"));
    expect(await bark.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Bark: push failed: apns unavailable (500)", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await bark.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const server = `http://127.0.0.1:${await closedPort()}`;
    expect(await bark.send({ server, deviceKey: KEY }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("bark validate", () => {
  const good = { server: "https://api.day.app", deviceKey: KEY };
  const error = (input: Record<string, unknown>) => {
    const result = bark.validate(input);
    return result.ok ? null : result.error;
  };
  const code = (input: Record<string, unknown>) => error(input)?.code ?? "ok";

  test("normalises: trims, drops the trailing slash, blank optionals and unknown fields", () => {
    expect(bark.validate({ server: " https://api.day.app/ ", deviceKey: ` ${KEY} `, group: " ", level: "", sound: "alarm" })).toEqual({ ok: true, config: good });
    expect(bark.validate({ ...good, group: " Vigil ", level: "passive" })).toEqual({ ok: true, config: { ...good, group: "Vigil", level: "passive" } });
  });

  test("the server: required, http(s), no credentials, query or fragment", () => {
    expect(error({ ...good, server: "" })).toEqual({ code: "BARK_SERVER_INVALID", message: "Server URL is required" });
    expect(error({ ...good, server: "api.day.app" })).toEqual({ code: "BARK_SERVER_INVALID", message: "Server URL must start with http:// or https://" });
    expect(code({ ...good, server: "https://api.day.app/#x" })).toBe("BARK_SERVER_INVALID");
  });

  test("the device key: required, no separators; never echoed", () => {
    expect(error({ ...good, deviceKey: " " })).toEqual({ code: "BARK_KEY_REQUIRED", message: "Device key is required" });
    expect(code({ server: good.server })).toBe("BARK_KEY_REQUIRED");
    expect(error({ ...good, deviceKey: `${KEY}/title` })).toEqual({ code: "VALIDATION", message: "deviceKey must hold only letters, digits, - and _" });
    expect(error({ ...good, deviceKey: 7 })).toEqual({ code: "VALIDATION", message: "deviceKey must be a string (got a number)" });
  });

  test("the level: active, timeSensitive, passive or critical", () => {
    for (const level of ["active", "timeSensitive", "passive", "critical"]) expect(code({ ...good, level })).toBe("ok");
    expect(error({ ...good, level: "urgent" })).toEqual({ code: "VALIDATION", message: 'level must be active, timeSensitive, passive or critical (got "urgent")' });
    expect(code({ ...good, level: "TimeSensitive" })).toBe("VALIDATION");
    expect(code({ ...good, group: 5 })).toBe("VALIDATION");
  });

  test("secrets, rate limit", () => {
    expect(bark.secretFields).toEqual(["deviceKey"]);
    expect(bark.perMinute).toBe(60);
  });
});
