import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";
import { twilio } from "./twilio";

const ACCOUNT = "AC0123456789abcdef0123456789abcdef";
const TOKEN = "f0e1d2c3b4a5968778695a4b3c2d1e0f";
const API_KEY = "SK0123456789abcdef0123456789abcdef";
const SERVICE = "MG0123456789abcdef0123456789abcdef";
const CONFIG: ChannelConfigs["twilio"] = { accountSid: ACCOUNT, authToken: TOKEN, fromNumber: "+15005550006", toNumber: "+15551234567" };
const BODY = `${MESSAGE.title}\nURL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)`;
const QUEUED = () => Response.json({ sid: "SM0123456789abcdef0123456789abcdef", status: "queued", error_code: null }, { status: 201 });
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

/** The fake stands in for api.twilio.com. */
const ctx = (overrides: Parameters<typeof context>[1] = {}) => context(fake!, { endpoints: { telegram: "", resend: "", twilio: fake!.url }, ...overrides });
const form = (body: string) => [...new URLSearchParams(body)];

describe("twilio send", () => {
  test("POSTs a form to the account's Messages.json with basic auth: To, From, Body", async () => {
    fake = startFake(QUEUED);
    expect(await twilio.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(`/2010-04-01/Accounts/${ACCOUNT}/Messages.json`);
    expect(request.headers.authorization).toBe(basic(ACCOUNT, TOKEN));
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(form(request.body)).toEqual([
      ["To", "+15551234567"],
      ["From", "+15005550006"],
      ["Body", BODY],
    ]);
  });

  test("an API key signs in with its SID; a Messaging Service sends without From; the body is cut to 1600", async () => {
    fake = startFake(QUEUED);
    const config = { accountSid: ACCOUNT, authToken: TOKEN, apiKeySid: API_KEY, messagingServiceSid: SERVICE, toNumber: "+15551234567" };
    await twilio.send(config, { ...MESSAGE, title: "t", lines: ["m".repeat(2000)] }, ctx());
    const request = fake.received[0];
    expect(request.path).toBe(`/2010-04-01/Accounts/${ACCOUNT}/Messages.json`);
    expect(request.headers.authorization).toBe(basic(API_KEY, TOKEN));
    expect(form(request.body)).toEqual([
      ["To", "+15551234567"],
      ["MessagingServiceSid", SERVICE],
      ["Body", `t\n${"m".repeat(1597)}…`],
    ]);
  });

  test("without an override the real host is used", async () => {
    const urls: string[] = [];
    const recording = Object.assign(async (url: string | URL | Request) => (urls.push(String(url)), Response.json({ sid: "SM1" }, { status: 201 })), {
      preconnect: fetch.preconnect,
    });
    expect(await twilio.send(CONFIG, MESSAGE, context(null, { fetch: recording as typeof fetch }))).toEqual({ ok: true });
    expect(urls).toEqual([`https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT}/Messages.json`]);
  });

  test("a 2xx without a message sid is a failure; 400 is final with Twilio's message and code", async () => {
    fake = startFake(() => new Response("<html>Twilio</html>"));
    expect(await twilio.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Twilio: HTTP 200: <html>Twilio</html>", retryable: false });
    fake.answer(() =>
      Response.json({ code: 21211, message: "The 'To' number +15551234567 is not a valid phone number.", more_info: "https://www.twilio.com/docs/errors/21211", status: 400 }, { status: 400 }),
    );
    expect(await twilio.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Twilio: The 'To' number +15551234567 is not a valid phone number. (21211)", retryable: false });
  });

  test("401 is final, and neither the token nor the basic credentials show", async () => {
    const header = basic(ACCOUNT, TOKEN).slice("Basic ".length);
    fake = startFake(() => Response.json({ code: 20003, message: `Authenticate: ${TOKEN} / ${header}`, status: 401 }, { status: 401 }));
    expect(await twilio.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Twilio: Authenticate: •••• / •••• (20003)", retryable: false });
  });

  test("429 with Retry-After is retryable after it; a 5xx is retryable", async () => {
    fake = startFake(() => Response.json({ code: 20429, message: "Too Many Requests", status: 429 }, { status: 429, headers: { "Retry-After": "2" } }));
    expect(await twilio.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Twilio: Too Many Requests (20429)", retryable: true, retryAfterMs: 2000 });
    fake.answer(() => new Response("", { status: 500 }));
    expect(await twilio.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Twilio: HTTP 500", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await twilio.send(CONFIG, MESSAGE, ctx({ timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}`;
    expect(await twilio.send(CONFIG, MESSAGE, context(null, { endpoints: { telegram: "", resend: "", twilio: closed } }))).toEqual({
      ok: false,
      error: "connection refused",
      retryable: true,
    });
  });
});

describe("twilio validate", () => {
  const error = (input: Record<string, unknown>) => {
    const result = twilio.validate(input);
    return result.ok ? null : result.error;
  };
  const code = (input: Record<string, unknown>) => error(input)?.code ?? "ok";

  test("normalises: trims, drops blank optionals and unknown fields", () => {
    expect(twilio.validate({ ...CONFIG, accountSid: ` ${ACCOUNT} `, authToken: `${TOKEN}\n`, apiKeySid: "", messagingServiceSid: " ", x: 1 })).toEqual({ ok: true, config: CONFIG });
    const full = { ...CONFIG, apiKeySid: API_KEY, messagingServiceSid: SERVICE, fromNumber: "Vigil Ops" };
    expect(twilio.validate(full)).toEqual({ ok: true, config: full });
  });

  test("the account SID, the token and the optional SIDs", () => {
    expect(error({ ...CONFIG, accountSid: "" })).toEqual({ code: "TWILIO_SID_INVALID", message: "The Account SID is required" });
    expect(error({ ...CONFIG, accountSid: `SK${ACCOUNT.slice(2)}` })).toEqual({ code: "TWILIO_SID_INVALID", message: "The Account SID is AC followed by 32 hexadecimal characters" });
    expect(error({ ...CONFIG, authToken: "" })).toEqual({ code: "TWILIO_TOKEN_REQUIRED", message: "The auth token (or the API key's secret) is required" });
    expect(error({ ...CONFIG, authToken: "a b" })).toEqual({ code: "VALIDATION", message: "authToken must not contain spaces or non-ASCII characters" });
    expect(error({ ...CONFIG, apiKeySid: ACCOUNT })).toEqual({ code: "VALIDATION", message: "apiKeySid must be SK followed by 32 hexadecimal characters" });
    expect(error({ ...CONFIG, messagingServiceSid: "MG1" })).toEqual({ code: "VALIDATION", message: "messagingServiceSid must be MG followed by 32 hexadecimal characters" });
  });

  test("a sender or a Messaging Service; numbers in international format", () => {
    expect(error({ ...CONFIG, fromNumber: "" })).toEqual({ code: "TWILIO_FROM_INVALID", message: "A sender (number or sender ID) or a Messaging Service SID is required" });
    const badFrom = { code: "TWILIO_FROM_INVALID", message: "The sender is a number in international format (+15551234567) or a sender ID of up to 11 letters and digits" };
    expect(error({ ...CONFIG, fromNumber: "5005550006" })).toEqual(badFrom);
    expect(error({ ...CONFIG, fromNumber: "Vigil Alerts Co" })).toEqual(badFrom);
    expect(code({ ...CONFIG, fromNumber: "", messagingServiceSid: SERVICE })).toBe("ok");
    expect(error({ ...CONFIG, toNumber: "" })).toEqual({ code: "TWILIO_TO_INVALID", message: "The number to text is required" });
    expect(error({ ...CONFIG, toNumber: "555-1234" })).toEqual({ code: "TWILIO_TO_INVALID", message: "The number to text is in international format, e.g. +15551234567" });
  });

  test("secrets, rate limit, no user URL", () => {
    expect(twilio.secretFields).toEqual(["authToken"]);
    expect(twilio.perMinute).toBe(60);
    expect(twilio.target).toBeUndefined();
  });
});
