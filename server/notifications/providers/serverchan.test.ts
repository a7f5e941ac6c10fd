import { afterEach, describe, expect, test } from "bun:test";
import { serverchan, serverChanUrl } from "./serverchan";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const TURBO = "SCT123456TAbCdEfGhIjKlMnOpQrStUvWx";
const SC3 = "sctp4321tXyZ0123456789abcdefABCDEF";
const DESP = "URL: https://shop.example.com/health?a=1&b=2\n\nError: HTTP 503\n\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const SENT = () => Response.json({ code: 0, message: "", data: { pushid: "1234", readkey: "abcd", error: "SUCCESS", errno: 0 } });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

/** The fake stands in for both hosts (see serverChanUrl). */
const ctx = (overrides: Parameters<typeof context>[1] = {}) => context(fake!, { endpoints: { telegram: "", resend: "", serverchan: fake!.url }, ...overrides });

describe("serverchan send", () => {
  test("Turbo: POSTs {key}.send with the title and markdown lines", async () => {
    fake = startFake(SENT);
    expect(await serverchan.send({ sendKey: TURBO }, MESSAGE, ctx())).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(`/${TURBO}.send`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    // 31 characters: within ServerChan's 32, so not cut.
    expect(request.json).toEqual({ title: "🔴 Monitor down: Shop <API> & co", desp: DESP });
  });

  test("SC3: POSTs send/{key}.send", async () => {
    fake = startFake(SENT);
    expect(await serverchan.send({ sendKey: SC3 }, { ...MESSAGE, lines: [] }, ctx())).toEqual({ ok: true });
    expect(fake.received[0].path).toBe(`/send/${SC3}.send`);
    expect(fake.received[0].json).toEqual({ title: MESSAGE.title, desp: "" });
  });

  test("the real hosts without an override: Turbo's, and SC3's per-uid host", () => {
    const none = { endpoints: { telegram: "", resend: "" } };
    expect(serverChanUrl(TURBO, none)).toBe(`https://sctapi.ftqq.com/${TURBO}.send`);
    expect(serverChanUrl(SC3, none)).toBe(`https://4321.push.ft07.com/send/${SC3}.send`);
    expect(serverChanUrl(TURBO, { endpoints: { telegram: "", resend: "", serverchan: "http://relay/sc/" } })).toBe(`http://relay/sc/${TURBO}.send`);
  });

  test("a long title is cut to 32 characters, the body to 32 KB", async () => {
    fake = startFake(SENT);
    await serverchan.send({ sendKey: TURBO }, { ...MESSAGE, title: "服务器宕机".repeat(10), lines: ["x".repeat(40_000)] }, ctx());
    const sent = fake.received[0].json as { title: string; desp: string };
    expect(sent.title).toBe(`${"服务器宕机".repeat(10).slice(0, 31)}…`);
    expect(sent.desp).toBe(`${"x".repeat(32 * 1024 - 3)}…`);
  });

  test("a 200 with a non-zero code is a final failure, and the key never shows", async () => {
    fake = startFake(() => Response.json({ code: 40001, message: `bad pushtoken ${TURBO}`, data: null }));
    expect(await serverchan.send({ sendKey: TURBO }, MESSAGE, ctx())).toEqual({ ok: false, error: "ServerChan: bad pushtoken •••• (40001)", retryable: false });
    fake.answer(() => new Response("<html>not found</html>"));
    expect(await serverchan.send({ sendKey: TURBO }, MESSAGE, ctx())).toEqual({ ok: false, error: "ServerChan: HTTP 200: <html>not found</html>", retryable: false });
  });

  test("a 4xx is final with ServerChan's message; the key in the path stays out of it", async () => {
    fake = startFake((request) => Response.json({ code: 40001, message: `no such key at ${request.path}` }, { status: 400 }));
    const result = await serverchan.send({ sendKey: SC3 }, MESSAGE, ctx());
    expect(result).toEqual({ ok: false, error: "ServerChan: no such key at /send/••••.send (40001)", retryable: false });
  });

  test("429 with Retry-After is retryable after it", async () => {
    fake = startFake(() => Response.json({ code: 429, message: "too many requests" }, { status: 429, headers: { "Retry-After": "60" } }));
    expect(await serverchan.send({ sendKey: TURBO }, MESSAGE, ctx())).toEqual({
      ok: false,
      error: "ServerChan: too many requests (429)",
      retryable: true,
      retryAfterMs: 60_000,
    });
  });

  test("a 5xx is retryable", async () => {
    fake = startFake(() => new Response("Bad Gateway", { status: 502 }));
    expect(await serverchan.send({ sendKey: TURBO }, MESSAGE, ctx())).toEqual({ ok: false, error: "ServerChan: HTTP 502: Bad Gateway", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable and never names the key", async () => {
    fake = startFake(never);
    expect(await serverchan.send({ sendKey: TURBO }, MESSAGE, ctx({ timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const result = await serverchan.send({ sendKey: SC3 }, MESSAGE, context(null, { endpoints: { telegram: "", resend: "", serverchan: closed } }));
    expect(result).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("serverchan validate", () => {
  const error = (input: Record<string, unknown>) => {
    const result = serverchan.validate(input);
    return result.ok ? null : result.error;
  };
  const invalid = { code: "SERVERCHAN_KEY_INVALID", message: "SendKey must look like SCT… (Turbo) or sctp…t… (SC3)" };

  test("normalises: trims, drops unknown fields", () => {
    expect(serverchan.validate({ sendKey: ` ${TURBO} `, channel: "9" })).toEqual({ ok: true, config: { sendKey: TURBO } });
    expect(serverchan.validate({ sendKey: SC3 })).toEqual({ ok: true, config: { sendKey: SC3 } });
  });

  test("the key: required, Turbo or SC3 shape; never echoed", () => {
    expect(error({})).toEqual({ code: "SERVERCHAN_KEY_INVALID", message: "SendKey is required" });
    expect(error({ sendKey: " " })).toEqual({ code: "SERVERCHAN_KEY_INVALID", message: "SendKey is required" });
    expect(error({ sendKey: "SCU12345abcdef" })).toEqual(invalid);
    expect(error({ sendKey: "SCT" })).toEqual(invalid);
    expect(error({ sendKey: "sctpXt123abc" })).toEqual(invalid);
    expect(error({ sendKey: "sctp123" })).toEqual(invalid);
    expect(error({ sendKey: `${TURBO}/x` })).toEqual(invalid);
    expect(error({ sendKey: 1 })).toEqual({ code: "VALIDATION", message: "sendKey must be a string (got a number)" });
  });

  test("secrets, rate limit", () => {
    expect(serverchan.secretFields).toEqual(["sendKey"]);
    expect(serverchan.perMinute).toBe(5);
  });
});
