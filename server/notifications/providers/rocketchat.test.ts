import { afterEach, describe, expect, test } from "bun:test";
import { rocketchat } from "./rocketchat";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const ID = "Gx7sKqP2mYbN4tRzW";
const TOKEN = "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1hJ3";
const HOOK = `/hooks/${ID}/${TOKEN}`;
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const DONE = () => Response.json({ success: true });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = () => ({ url: `${fake!.url}${HOOK}` });

describe("rocketchat send", () => {
  test("posts the bold title and the lines in a red attachment", async () => {
    fake = startFake(DONE);
    expect(await rocketchat.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(HOOK);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ alias: "Vigil", text: `*${MESSAGE.title}*`, attachments: [{ color: "#e5484d", text: LINES }] });
  });

  test("green for ok, blue for info; no lines: no attachment", async () => {
    fake = startFake(DONE);
    await rocketchat.send(config(), { ...MESSAGE, severity: "ok" }, context(fake));
    await rocketchat.send(config(), { ...MESSAGE, severity: "info" }, context(fake));
    await rocketchat.send(config(), { ...MESSAGE, lines: [] }, context(fake));
    const bodies = fake.received.map((r) => r.json as { attachments?: { color: string }[] });
    expect(bodies.map((b) => b.attachments?.[0].color)).toEqual(["#30a46c", "#0090ff", undefined]);
    expect(fake.received[2].json).toEqual({ alias: "Vigil", text: `*${MESSAGE.title}*` });
  });

  test("long texts are cut to 5000 characters", async () => {
    fake = startFake(DONE);
    await rocketchat.send(config(), { ...MESSAGE, title: "t".repeat(6000), lines: ["x".repeat(6000)] }, context(fake));
    const body = fake.received[0].json as { text: string; attachments: { text: string }[] };
    expect(body.text).toBe(`*${"t".repeat(4997)}…*`);
    expect(body.text).toHaveLength(5000);
    expect(body.attachments[0].text).toBe(`${"x".repeat(4999)}…`);
  });

  test("success:false is a failure even on a 200", async () => {
    fake = startFake(() => Response.json({ success: false, error: "Invalid integration id or token provided." }));
    expect(await rocketchat.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Rocket.Chat: Invalid integration id or token provided.", retryable: false });
    fake.answer(() => new Response("<html>login</html>"));
    expect(await rocketchat.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Rocket.Chat: HTTP 200: <html>login</html>", retryable: false });
  });

  test("a 4xx is final with Rocket.Chat's error; id and token never show", async () => {
    fake = startFake(() => Response.json({ success: false, error: `Invalid integration id or token provided. (${ID}/${TOKEN})` }, { status: 400 }));
    expect(await rocketchat.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Rocket.Chat: Invalid integration id or token provided. (••••/••••)",
      retryable: false,
    });
    fake.answer(() => Response.json({ success: false, error: `token ${TOKEN} disabled` }, { status: 404 }));
    expect(await rocketchat.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Rocket.Chat: token •••• disabled", retryable: false });
  });

  test("429 with Retry-After is retryable after it", async () => {
    fake = startFake(() =>
      Response.json(
        { success: false, error: "Error, too many requests. Please slow down. You must wait 9 seconds before trying this endpoint again. [error-too-many-requests]" },
        { status: 429, headers: { "Retry-After": "9" } },
      ),
    );
    expect(await rocketchat.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Rocket.Chat: Error, too many requests. Please slow down. You must wait 9 seconds before trying this endpoint again. [error-too-many-requests]",
      retryable: true,
      retryAfterMs: 9000,
    });
  });

  test("a 5xx is retryable", async () => {
    fake = startFake(() => new Response("Bad Gateway", { status: 502 }));
    expect(await rocketchat.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Rocket.Chat: HTTP 502: Bad Gateway", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await rocketchat.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const url = `http://127.0.0.1:${await closedPort()}${HOOK}`;
    expect(await rocketchat.send({ url }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("rocketchat validate", () => {
  const hook = `https://rocket.example.com${HOOK}`;

  test("normalises: trims, drops unknown fields", () => {
    expect(rocketchat.validate({ url: ` ${hook} `, alias: "x" })).toEqual({ ok: true, config: { url: hook } });
  });

  test("the spec's codes", () => {
    const code = (input: Record<string, unknown>) => {
      const result = rocketchat.validate(input);
      return result.ok ? "ok" : result.error.code;
    };
    expect(code({})).toBe("WEBHOOK_URL_REQUIRED");
    expect(code({ url: "" })).toBe("WEBHOOK_URL_REQUIRED");
    expect(code({ url: "rocket.example.com/hooks/a/b" })).toBe("WEBHOOK_URL_INVALID");
    // A Mattermost-style URL without the token segment.
    expect(code({ url: `https://rocket.example.com/hooks/${ID}` })).toBe("WEBHOOK_URL_SHAPE");
    expect(code({ url: 42 })).toBe("VALIDATION");
  });

  test("secrets, rate limit", () => {
    expect(rocketchat.secretFields).toEqual(["url"]);
    expect(rocketchat.perMinute).toBe(60);
  });
});
