import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs } from "../public";
import { signal } from "./signal";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const NUMBER = "+4915112345678";
const GROUP = "group.ZmFrZS1ncm91cC1pZC1mb3ItdGVzdHM=";
const TEXT = `${MESSAGE.title}\nURL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)`;
const SENT = () => Response.json({ timestamp: 1763866923456 }, { status: 201 });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = (extra: Partial<ChannelConfigs["signal"]> = {}): ChannelConfigs["signal"] => ({ server: fake!.url, number: NUMBER, recipients: ["+4917612345678", GROUP], ...extra });

describe("signal send", () => {
  test("POSTs /v2/send: the title and lines as one message, the sender number, the recipients", async () => {
    fake = startFake(SENT);
    expect(await signal.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v2/send");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ message: TEXT, number: NUMBER, recipients: ["+4917612345678", GROUP] });
  });

  test("a server under a path with a trailing slash; the timestamp as a number or as a string", async () => {
    fake = startFake(() => Response.json({ timestamp: "1763866923456" }, { status: 201 }));
    expect(await signal.send(config({ server: `${fake.url}/signal/` }), { ...MESSAGE, lines: [] }, context(fake))).toEqual({ ok: true });
    expect(fake.received[0].path).toBe("/signal/v2/send");
    expect((fake.received[0].json as { message: string }).message).toBe(MESSAGE.title);
  });

  test("the message is cut to 2000 characters", async () => {
    fake = startFake(SENT);
    await signal.send(config(), { ...MESSAGE, title: "t", lines: ["m".repeat(3000)] }, context(fake));
    expect((fake.received[0].json as { message: string }).message).toBe(`t\n${"m".repeat(1997)}…`);
  });

  test("a 2xx without a timestamp is a failure; 400 is final with the API's error", async () => {
    fake = startFake(() => new Response("<html>proxy</html>"));
    expect(await signal.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Signal: HTTP 200: <html>proxy</html>", retryable: false });
    fake.answer(() => Response.json({ error: "Failed to send message: Unregistered user" }, { status: 400 }));
    expect(await signal.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Signal: Failed to send message: Unregistered user", retryable: false });
  });

  test("429 (a rate-limit challenge) is retryable, after Retry-After when given; a 5xx is retryable", async () => {
    fake = startFake(() => Response.json({ error: "Rate limit exceeded", challenge_tokens: ["abc"], account: NUMBER }, { status: 429, headers: { "Retry-After": "60" } }));
    expect(await signal.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Signal: Rate limit exceeded", retryable: true, retryAfterMs: 60_000 });
    fake.answer(() => new Response("", { status: 503 }));
    expect(await signal.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Signal: HTTP 503", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await signal.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const server = `http://127.0.0.1:${await closedPort()}`;
    expect(await signal.send({ server, number: NUMBER, recipients: [NUMBER] }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("signal validate", () => {
  const good = { server: "http://signal.example.com:8080", number: NUMBER, recipients: [NUMBER] };
  const error = (input: Record<string, unknown>) => {
    const result = signal.validate(input);
    return result.ok ? null : result.error;
  };
  const code = (input: Record<string, unknown>) => error(input)?.code ?? "ok";

  test("normalises: trims, splits a recipients string, drops duplicates and unknown fields", () => {
    expect(signal.validate({ server: "http://signal.example.com:8080/", number: ` ${NUMBER} `, recipients: `${NUMBER}, ${GROUP}  ${NUMBER}`, x: 1 })).toEqual({
      ok: true,
      config: { ...good, recipients: [NUMBER, GROUP] },
    });
    expect(signal.validate({ ...good, recipients: [" +4917612345678 ", "", "alice.01"] })).toEqual({ ok: true, config: { ...good, recipients: ["+4917612345678", "alice.01"] } });
  });

  test("the server: required, http(s)", () => {
    expect(error({ ...good, server: "" })).toEqual({ code: "SIGNAL_SERVER_INVALID", message: "Server URL is required" });
    expect(code({ ...good, server: "signal:8080" })).toBe("SIGNAL_SERVER_INVALID");
  });

  test("the sender number: required, international format", () => {
    expect(error({ ...good, number: " " })).toEqual({ code: "SIGNAL_NUMBER_INVALID", message: "The sender number is required" });
    const invalid = { code: "SIGNAL_NUMBER_INVALID", message: "The sender number must be in international format, e.g. +4915112345678" };
    expect(error({ ...good, number: "015112345678" })).toEqual(invalid);
    expect(error({ ...good, number: "+49 151 1234" })).toEqual(invalid);
    expect(error({ ...good, number: "+0123456789" })).toEqual(invalid);
  });

  test("recipients: at least one, at most 50, one word each", () => {
    expect(error({ ...good, recipients: [] })).toEqual({ code: "SIGNAL_RECIPIENTS_INVALID", message: "At least one recipient is required" });
    expect(code({ ...good, recipients: " , " })).toBe("SIGNAL_RECIPIENTS_INVALID");
    expect(error({ ...good, recipients: Array.from({ length: 51 }, (_, i) => `+491511234${String(i).padStart(4, "0")}`) })).toEqual({ code: "SIGNAL_RECIPIENTS_INVALID", message: "At most 50 recipients" });
    expect(error({ ...good, recipients: ["two words"] })).toEqual({ code: "SIGNAL_RECIPIENTS_INVALID", message: "Each recipient is a number (+…), a username or a group id" });
    expect(error({ ...good, recipients: 7 })).toEqual({ code: "VALIDATION", message: "recipients must be a list of strings or a comma-separated string (got number 7)" });
    expect(error({ ...good, recipients: [NUMBER, 7] })).toEqual({ code: "VALIDATION", message: "recipients must be a list of strings (got number 7 in it)" });
  });

  test("no secrets, rate limit, target", () => {
    expect(signal.secretFields).toEqual([]);
    expect(signal.perMinute).toBe(30);
    expect(signal.target!(good)).toEqual({ url: good.server });
  });
});
