import { afterEach, describe, expect, test } from "bun:test";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";
import { wecom } from "./wecom";

const KEY = "693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa";

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const url = () => `${fake!.url}/cgi-bin/webhook/send?key=${KEY}`;

describe("wecom send", () => {
  test("posts a markdown message to the robot URL", async () => {
    fake = startFake(() => Response.json({ errcode: 0, errmsg: "ok" }));
    expect(await wecom.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(`/cgi-bin/webhook/send?key=${KEY}`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({
      msgtype: "markdown",
      markdown: {
        content:
          "**🔴 Monitor down: Shop <API> & co**\nURL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\n" +
          "Time: 2026-11-23 11:02:03 (UTC+08:00)",
      },
    });
  });

  test("content is cut to WeCom's 4096 UTF-8 bytes", async () => {
    fake = startFake(() => Response.json({ errcode: 0, errmsg: "ok" }));
    await wecom.send({ url: url() }, { ...MESSAGE, title: "宕机", lines: Array.from({ length: 400 }, (_, i) => `监控 ${i}: 无法连接`) }, context(fake));
    const content = (fake.received[0].json as { markdown: { content: string } }).markdown.content;
    expect(new TextEncoder().encode(content).length).toBeLessThanOrEqual(4096);
    expect(content.endsWith("…")).toBe(true);
    expect(content.startsWith("**宕机**\n监控 0: 无法连接")).toBe(true);
  });

  test("errcode != 0 is a final failure with errmsg and errcode; the key never shows", async () => {
    fake = startFake(() => Response.json({ errcode: 93000, errmsg: `invalid webhook url, hint: [key=${KEY}]` }));
    expect(await wecom.send({ url: url() }, MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "WeCom: invalid webhook url, hint: [key=••••] (93000)",
      retryable: false,
    });
  });

  test("45009 (api freq out of limit) is retryable", async () => {
    fake = startFake(() => Response.json({ errcode: 45009, errmsg: "api freq out of limit" }));
    expect(await wecom.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: false, error: "WeCom: api freq out of limit (45009)", retryable: true });
  });

  test("HTTP 429 with Retry-After, 502, and a 401", async () => {
    fake = startFake(() => new Response("", { status: 429, headers: { "Retry-After": "3" } }));
    expect(await wecom.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: false, error: "WeCom: HTTP 429", retryable: true, retryAfterMs: 3000 });
    fake.answer(() => new Response("bad gateway", { status: 502 }));
    expect(await wecom.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: false, error: "WeCom: HTTP 502: bad gateway", retryable: true });
    fake.answer(() => new Response("denied", { status: 401 }));
    expect(await wecom.send({ url: url() }, MESSAGE, context(fake))).toEqual({ ok: false, error: "WeCom: HTTP 401: denied", retryable: false });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await wecom.send({ url: url() }, MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}/cgi-bin/webhook/send?key=${KEY}`;
    expect(await wecom.send({ url: closed }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("wecom validate", () => {
  test("normalises: trims, drops unknown fields", () => {
    const robot = `https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=${KEY}`;
    expect(wecom.validate({ url: `\t${robot}\n`, mentioned: ["@all"] })).toEqual({ ok: true, config: { url: robot } });
  });

  test("the spec's codes and messages", () => {
    expect(wecom.validate({ url: "" })).toEqual({ ok: false, error: { code: "WEBHOOK_URL_REQUIRED", message: "Webhook URL is required" } });
    expect(wecom.validate({ url: "qyapi.weixin.qq.com" })).toEqual({
      ok: false,
      error: { code: "WEBHOOK_URL_INVALID", message: "Webhook URL must start with http:// or https://" },
    });
    expect(wecom.validate({ url: { href: "https://x" } })).toEqual({ ok: false, error: { code: "VALIDATION", message: "url must be a string (got an object)" } });
  });

  test("secrets, rate limit", () => {
    expect(wecom.secretFields).toEqual(["url"]);
    expect(wecom.perMinute).toBe(20);
  });
});
