import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { pushover } from "./pushover";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const USER = "uQiRzpo4DXghDmr9QzzfQu27cmVRsG";
const APP = "azGDORePK8gMaC0QOYAMyEEuzJnyUi";
const CONFIG: ChannelConfigs["pushover"] = { userKey: USER, appToken: APP };
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const SENT = () => Response.json({ status: 1, request: "647d2300-702c-4b38-8b2f-d56326ae460b" });
const rejected = (status: number, errors: string[], headers: Record<string, string> = {}) =>
  Response.json({ user: "invalid", errors, status: 0, request: "5042853c-402d-4a18-abcb-168734a801de" }, { status, headers });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

/** The fake stands in for api.pushover.net. */
const ctx = (overrides: Parameters<typeof context>[1] = {}) => context(fake!, { endpoints: { telegram: "", resend: "", pushover: fake!.url }, ...overrides });
const form = (body: string) => [...new URLSearchParams(body)];

describe("pushover send", () => {
  test("POSTs a form to /1/messages.json: token, user, title, message, priority 1 for critical", async () => {
    fake = startFake(SENT);
    expect(await pushover.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/1/messages.json");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(form(request.body)).toEqual([
      ["token", APP],
      ["user", USER],
      ["title", MESSAGE.title],
      ["message", LINES],
      ["priority", "1"],
    ]);
  });

  test("priority 0 for ok and info; the configured priority and sound; no lines: the title is the message", async () => {
    fake = startFake(SENT);
    await pushover.send(CONFIG, { ...MESSAGE, severity: "ok" }, ctx());
    expect(new URLSearchParams(fake.received[0].body).get("priority")).toBe("0");
    await pushover.send(CONFIG, { ...MESSAGE, severity: "info" }, ctx());
    expect(new URLSearchParams(fake.received[1].body).get("priority")).toBe("0");
    await pushover.send({ ...CONFIG, priority: -1, sound: "siren" }, { ...MESSAGE, lines: [] }, ctx());
    expect(form(fake.received[2].body)).toEqual([
      ["token", APP],
      ["user", USER],
      ["message", MESSAGE.title],
      ["priority", "-1"],
      ["sound", "siren"],
    ]);
  });

  test("emergency priority 2 sends retry and expire", async () => {
    fake = startFake(SENT);
    await pushover.send({ ...CONFIG, priority: 2 }, MESSAGE, ctx());
    const sent = new URLSearchParams(fake.received[0].body);
    expect([sent.get("priority"), sent.get("retry"), sent.get("expire")]).toEqual(["2", "60", "3600"]);
  });

  test("title cut to 250 characters, message to 1024", async () => {
    fake = startFake(SENT);
    await pushover.send(CONFIG, { ...MESSAGE, title: "t".repeat(300), lines: ["m".repeat(2000)] }, ctx());
    const sent = new URLSearchParams(fake.received[0].body);
    expect(sent.get("title")).toBe(`${"t".repeat(249)}…`);
    expect(sent.get("message")).toBe(`${"m".repeat(1023)}…`);
  });

  test("a base with a trailing slash is not doubled; without an override the real host is used", async () => {
    fake = startFake(SENT);
    await pushover.send(CONFIG, MESSAGE, context(fake, { endpoints: { telegram: "", resend: "", pushover: `${fake.url}/` } }));
    expect(fake.received[0].path).toBe("/1/messages.json");
    const urls: string[] = [];
    const recording = Object.assign(async (url: string | URL | Request) => (urls.push(String(url)), Response.json({ status: 1 })), { preconnect: fetch.preconnect });
    expect(await pushover.send(CONFIG, MESSAGE, context(null, { fetch: recording as typeof fetch }))).toEqual({ ok: true });
    expect(urls).toEqual(["https://api.pushover.net/1/messages.json"]);
  });

  test("status 0 is a failure even in a 200", async () => {
    fake = startFake(() => Response.json({ status: 0, errors: ["application is over its quota"] }));
    expect(await pushover.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Pushover: application is over its quota", retryable: false });
  });

  test("400 is final with Pushover's errors, and no key shows", async () => {
    fake = startFake(() => rejected(400, [`user identifier ${USER} is not a valid user`, `application token ${APP} is invalid`]));
    expect(await pushover.send(CONFIG, MESSAGE, ctx())).toEqual({
      ok: false,
      error: "Pushover: user identifier •••• is not a valid user; application token •••• is invalid",
      retryable: false,
    });
  });

  test("429 with Retry-After is retryable after it", async () => {
    fake = startFake(() => rejected(429, ["message limit reached"], { "Retry-After": "60" }));
    expect(await pushover.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Pushover: message limit reached", retryable: true, retryAfterMs: 60_000 });
  });

  test("a 5xx is retryable", async () => {
    fake = startFake(() => new Response("Service Unavailable", { status: 503 }));
    expect(await pushover.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Pushover: HTTP 503: Service Unavailable", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await pushover.send(CONFIG, MESSAGE, ctx({ timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}`;
    expect(await pushover.send(CONFIG, MESSAGE, context(null, { endpoints: { telegram: "", resend: "", pushover: closed } }))).toEqual({
      ok: false,
      error: "connection refused",
      retryable: true,
    });
  });
});

describe("pushover validate", () => {
  const error = (input: Record<string, unknown>) => {
    const result = pushover.validate(input);
    return result.ok ? null : result.error;
  };
  const code = (input: Record<string, unknown>) => error(input)?.code ?? "ok";

  test("normalises: trims, drops blank optionals and unknown fields", () => {
    expect(pushover.validate({ userKey: ` ${USER} `, appToken: `${APP}\n`, priority: "", sound: " ", device: "phone" })).toEqual({ ok: true, config: CONFIG });
    expect(pushover.validate({ ...CONFIG, priority: "-2", sound: " siren " })).toEqual({ ok: true, config: { ...CONFIG, priority: -2, sound: "siren" } });
  });

  test("the user key and application token: 30 letters and digits, never echoed", () => {
    expect(error({ appToken: APP })).toEqual({ code: "PUSHOVER_USER_INVALID", message: "User key is required" });
    expect(error({ userKey: "short", appToken: APP })).toEqual({ code: "PUSHOVER_USER_INVALID", message: "User key must be 30 letters and digits" });
    expect(code({ userKey: `${USER.slice(1)}-`, appToken: APP })).toBe("PUSHOVER_USER_INVALID");
    expect(error({ userKey: USER })).toEqual({ code: "PUSHOVER_TOKEN_INVALID", message: "Application token is required" });
    expect(error({ userKey: USER, appToken: `${APP}x` })).toEqual({ code: "PUSHOVER_TOKEN_INVALID", message: "Application token must be 30 letters and digits" });
    expect(error({ userKey: 12, appToken: APP })).toEqual({ code: "VALIDATION", message: "userKey must be a string (got a number)" });
  });

  test("priority -2…2 and a sound name", () => {
    expect(error({ ...CONFIG, priority: 3 })).toEqual({ code: "VALIDATION", message: "priority must be a whole number from -2 to 2 (got number 3)" });
    expect(code({ ...CONFIG, priority: -3 })).toBe("VALIDATION");
    expect(code({ ...CONFIG, priority: "high" })).toBe("VALIDATION");
    expect(error({ ...CONFIG, sound: "air horn" })).toEqual({ code: "VALIDATION", message: 'sound must be a Pushover sound name such as "siren" (got "air horn")' });
    expect(code({ ...CONFIG, sound: 1 })).toBe("VALIDATION");
  });

  test("secrets, rate limit", () => {
    expect(pushover.secretFields).toEqual(["userKey", "appToken"]);
    expect(pushover.perMinute).toBe(60);
  });
});
