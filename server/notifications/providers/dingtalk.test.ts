import { afterEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { dingtalk } from "./dingtalk";
import { closedPort, context, type Fake, MESSAGE, never, NOW, startFake } from "./test-fake";

const TOKEN = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
const SECRET = "SEC0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd";

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const url = () => `${fake!.url}/robot/send?access_token=${TOKEN}`;
const OK_ANSWER = () => Response.json({ errcode: 0, errmsg: "ok" });

describe("dingtalk send", () => {
  test("posts a markdown message to the robot URL", async () => {
    fake = startFake(OK_ANSWER);
    expect(await dingtalk.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(`/robot/send?access_token=${TOKEN}`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.json).toEqual({
      msgtype: "markdown",
      markdown: {
        title: MESSAGE.title,
        text:
          "#### 🔴 Monitor down: Shop <API> & co\n\nURL: https://shop.example.com/health?a=1&b=2\n\nError: HTTP 503\n\n" +
          "Time: 2026-11-23 11:02:03 (UTC+08:00)",
      },
    });
  });

  test("with a secret, appends timestamp (ms) and the URL-encoded 加签 signature", async () => {
    fake = startFake(OK_ANSWER);
    expect(await dingtalk.send({ url: url(), secret: SECRET }, MESSAGE, context(fake))).toEqual({ ok: true });
    const query = new URL(fake.received[0].path, "http://x").searchParams;
    expect([...query.keys()]).toEqual(["access_token", "timestamp", "sign"]);
    expect(query.get("access_token")).toBe(TOKEN);
    expect(query.get("timestamp")).toBe(String(NOW));
    const expected = createHmac("sha256", SECRET).update(`${NOW}\n${SECRET}`, "utf8").digest("base64");
    expect(query.get("sign")).toBe(expected);
    // Sent URL-encoded: base64's + / = never appear raw in the query.
    const rawSign = fake.received[0].path.split("&sign=")[1];
    expect(rawSign).toBe(encodeURIComponent(expected));
  });

  test("errcode != 0 in an HTTP 200 is a final failure with errmsg and errcode; the token never shows", async () => {
    fake = startFake(() => Response.json({ errcode: 310000, errmsg: `sign not match, more: [access_token=${TOKEN}]` }));
    expect(await dingtalk.send({ url: url(), secret: SECRET }, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "DingTalk: sign not match, more: [access_token=••••] (310000)",
      retryable: false,
    });
  });

  test("130101 (send too fast) is retryable after DingTalk's 10-minute throttle", async () => {
    fake = startFake(() => Response.json({ errcode: 130101, errmsg: "send too fast, exceed 20 times per minute" }));
    expect(await dingtalk.send({ url: url() }, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "DingTalk: send too fast, exceed 20 times per minute (130101)",
      retryable: true,
      retryAfterMs: 600_000,
    });
  });

  test("HTTP 429 with Retry-After, 5xx, and a 400 without errcode", async () => {
    fake = startFake(() => new Response("Too Many Requests", { status: 429, headers: { "Retry-After": "5" } }));
    expect(await dingtalk.send({ url: url() }, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "DingTalk: HTTP 429: Too Many Requests",
      retryable: true,
      retryAfterMs: 5000,
    });
    fake.answer(() => new Response("", { status: 503 }));
    expect(await dingtalk.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: false, error: "DingTalk: HTTP 503", retryable: true });
    fake.answer(() => new Response("bad", { status: 400 }));
    expect(await dingtalk.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: false, error: "DingTalk: HTTP 400: bad", retryable: false });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await dingtalk.send({ url: url() }, MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}/robot/send?access_token=${TOKEN}`;
    expect(await dingtalk.send({ url: closed }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("dingtalk validate", () => {
  test("normalises: trims, drops an empty secret and unknown fields", () => {
    const robot = `https://oapi.dingtalk.com/robot/send?access_token=${TOKEN}`;
    expect(dingtalk.validate({ url: ` ${robot} `, secret: ` ${SECRET} `, keyword: "x" })).toEqual({ ok: true, config: { url: robot, secret: SECRET } });
    expect(dingtalk.validate({ url: robot, secret: "" })).toEqual({ ok: true, config: { url: robot } });
  });

  test("the spec's codes and messages", () => {
    expect(dingtalk.validate({ secret: SECRET })).toEqual({ ok: false, error: { code: "WEBHOOK_URL_REQUIRED", message: "Webhook URL is required" } });
    expect(dingtalk.validate({ url: "oapi.dingtalk.com/robot/send" })).toEqual({
      ok: false,
      error: { code: "WEBHOOK_URL_INVALID", message: "Webhook URL must start with http:// or https://" },
    });
    expect(dingtalk.validate({ url: "https://oapi.dingtalk.com/robot/send?access_token=abc", secret: true })).toEqual({
      ok: false,
      error: { code: "VALIDATION", message: "secret must be a string (got a boolean)" },
    });
  });

  test("secrets, rate limit", () => {
    expect(dingtalk.secretFields).toEqual(["url", "secret"]);
    expect(dingtalk.perMinute).toBe(20);
  });
});
