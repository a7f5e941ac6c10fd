import { afterEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { feishu } from "./feishu";
import { closedPort, context, type Fake, MESSAGE, never, NOW, startFake } from "./test-fake";

const HOOK = "/open-apis/bot/v2/hook/2f5c6a8e-1b3d-4e7f-9a0b-c1d2e3f4a5b6";
const SECRET = "qYm8Tz3kXbN0pL5vR2wH7e";

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const url = () => `${fake!.url}${HOOK}`;
const OK_ANSWER = () => Response.json({ code: 0, msg: "success", data: {} });
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";

describe("feishu send", () => {
  test("posts an interactive card, red for critical", async () => {
    fake = startFake(OK_ANSWER);
    expect(await feishu.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(HOOK);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({
      msg_type: "interactive",
      card: {
        header: { title: { tag: "plain_text", content: MESSAGE.title }, template: "red" },
        elements: [{ tag: "div", text: { tag: "lark_md", content: LINES } }],
      },
    });
  });

  test("green for ok, blue for info", async () => {
    fake = startFake(OK_ANSWER);
    await feishu.send({ url: url() }, { ...MESSAGE, severity: "ok" }, context(fake));
    await feishu.send({ url: url() }, { ...MESSAGE, severity: "info", lines: [] }, context(fake));
    const cards = fake.received.map((r) => (r.json as { card: { header: { template: string }; elements: unknown[] } }).card);
    expect(cards.map((c) => c.header.template)).toEqual(["green", "blue"]);
    expect(cards[1].elements).toEqual([]);
  });

  test("with a secret: timestamp in seconds (string) and sign = HMAC keyed with `timestamp\\nsecret` over nothing", async () => {
    fake = startFake(OK_ANSWER);
    expect(await feishu.send({ url: url(), secret: SECRET }, MESSAGE, context(fake))).toEqual({ ok: true });
    const body = fake.received[0].json as { timestamp: string; sign: string; msg_type: string };
    const seconds = String(Math.floor(NOW / 1000));
    expect(body.timestamp).toBe(seconds);
    expect(body.sign).toBe(createHmac("sha256", `${seconds}\n${SECRET}`).digest("base64"));
    expect(body.msg_type).toBe("interactive");
  });

  test("code != 0 is a final failure with msg and code; the hook id never shows", async () => {
    fake = startFake(() => Response.json({ code: 19021, msg: `sign match fail or timestamp is not within one hour from current time ${HOOK}`, data: {} }));
    expect(await feishu.send({ url: url(), secret: SECRET }, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Feishu: sign match fail or timestamp is not within one hour from current time •••• (19021)",
      retryable: false,
    });
  });

  test("the older answer shape: StatusCode 0 is success, otherwise StatusMessage", async () => {
    fake = startFake(() => Response.json({ Extra: null, StatusCode: 0, StatusMessage: "success" }));
    expect(await feishu.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: true });
    fake.answer(() => Response.json({ StatusCode: 9499, StatusMessage: "Bad Request" }, { status: 400 }));
    expect(await feishu.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: false, error: "Feishu: Bad Request (9499)", retryable: false });
  });

  test("11232 (frequency limited) is retryable; so is 429 with Retry-After", async () => {
    fake = startFake(() => Response.json({ code: 11232, msg: "frequency limited psm[lark.oapi.app_platform_runtime]appID[1]", data: {} }));
    expect(await feishu.send({ url: url() }, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Feishu: frequency limited psm[lark.oapi.app_platform_runtime]appID[1] (11232)",
      retryable: true,
    });
    fake.answer(() => Response.json({ code: 11232, msg: "too many" }, { status: 429, headers: { "Retry-After": "2" } }));
    expect(await feishu.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: false, error: "Feishu: too many (11232)", retryable: true, retryAfterMs: 2000 });
  });

  test("a 404 without a code is final; a 500 is retryable", async () => {
    fake = startFake(() => new Response("404 page not found", { status: 404 }));
    expect(await feishu.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: false, error: "Feishu: HTTP 404: 404 page not found", retryable: false });
    fake.answer(() => new Response("oops", { status: 500 }));
    expect(await feishu.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: false, error: "Feishu: HTTP 500: oops", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await feishu.send({ url: url() }, MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}${HOOK}`;
    expect(await feishu.send({ url: closed }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("feishu validate", () => {
  test("normalises: trims, drops an empty secret and unknown fields", () => {
    const hook = `https://open.feishu.cn${HOOK}`;
    expect(feishu.validate({ url: ` ${hook}`, secret: ` ${SECRET} `, lang: "zh" })).toEqual({ ok: true, config: { url: hook, secret: SECRET } });
    expect(feishu.validate({ url: hook, secret: "" })).toEqual({ ok: true, config: { url: hook } });
  });

  test("the spec's codes and messages", () => {
    expect(feishu.validate({})).toEqual({ ok: false, error: { code: "WEBHOOK_URL_REQUIRED", message: "Webhook URL is required" } });
    expect(feishu.validate({ url: "wss://open.feishu.cn/x" })).toEqual({
      ok: false,
      error: { code: "WEBHOOK_URL_INVALID", message: "Webhook URL must start with http:// or https://" },
    });
    expect(feishu.validate({ url: `https://open.feishu.cn${HOOK}`, secret: 1 })).toEqual({
      ok: false,
      error: { code: "VALIDATION", message: "secret must be a string (got a number)" },
    });
  });

  test("secrets, rate limit", () => {
    expect(feishu.secretFields).toEqual(["url", "secret"]);
    expect(feishu.perMinute).toBe(100);
  });
});
