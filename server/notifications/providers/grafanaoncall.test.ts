import { afterEach, describe, expect, test } from "bun:test";
import type { NotificationEvent } from "../public";
import { grafanaoncall } from "./grafanaoncall";
import type { NotificationMessage } from "./provider";
import { closedPort, context, EVENT, type Fake, MESSAGE, never, startFake } from "./test-fake";

const PATH = "/integrations/v1/formatted_webhook/K3yT0k3nAbCdEf123/";
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const OK_ANSWER = () => Response.json("Ok.");

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = () => ({ url: `${fake!.url}${PATH}` });
const withEvents = (...events: NotificationEvent[]): NotificationMessage => ({ ...MESSAGE, events });
const event = (kind: NotificationEvent["kind"], extra: Partial<NotificationEvent> = {}): NotificationEvent => ({ ...EVENT, kind, ...extra });

describe("grafanaoncall send", () => {
  test("a down event POSTs an alerting alert: alert_uid per target, title, message", async () => {
    fake = startFake(OK_ANSWER);
    expect(await grafanaoncall.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(PATH);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ alert_uid: "vigil-monitor-7", title: MESSAGE.title, message: LINES, state: "alerting" });
  });

  test("the recovery resolves the same alert_uid (state ok); a reminder joins it; usage conditions have their own", async () => {
    fake = startFake(OK_ANSWER);
    const agent = { type: "agent" as const, id: 3, name: "db-1" };
    await grafanaoncall.send(config(), withEvents(event("reminder"), event("recovery"), event("cpu", { target: agent }), event("online", { target: agent })), context(fake));
    expect(fake.received.map((r) => r.json)).toMatchObject([
      { alert_uid: "vigil-monitor-7", state: "alerting" },
      { alert_uid: "vigil-monitor-7", state: "ok" },
      { alert_uid: "vigil-agent-3-cpu", state: "alerting" },
      { alert_uid: "vigil-agent-3", state: "ok" },
    ]);
  });

  test("a test fires and resolves at once", async () => {
    fake = startFake(OK_ANSWER);
    await grafanaoncall.send(config(), withEvents(event("test", { target: { type: "channel", id: 4, name: "" } })), context(fake));
    expect(fake.received.map((r) => r.json)).toMatchObject([
      { alert_uid: "vigil-channel-4", state: "alerting" },
      { alert_uid: "vigil-channel-4", state: "ok" },
    ]);
  });

  test("only OnCall's Ok. is a success (as JSON or text); a grouped message stops at the first failure", async () => {
    fake = startFake(() => new Response("Ok."));
    expect(await grafanaoncall.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    fake.answer(() => new Response("<html>Grafana</html>"));
    expect(await grafanaoncall.send(config(), withEvents(EVENT, event("down", { target: { type: "monitor", id: 8, name: "Blog" } })), context(fake))).toEqual({
      ok: false,
      error: "Grafana OnCall: HTTP 200: <html>Grafana</html>",
      retryable: false,
    });
    expect(fake.received).toHaveLength(2);
  });

  test("400 is final and the integration's token never shows", async () => {
    fake = startFake(() => new Response(`This url is for integration with Alertmanager. Key is for K3yT0k3nAbCdEf123`, { status: 400 }));
    expect(await grafanaoncall.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Grafana OnCall: HTTP 400: This url is for integration with Alertmanager. Key is for ••••",
      retryable: false,
    });
  });

  test("429 with Retry-After is retryable after it; a 5xx is retryable", async () => {
    fake = startFake(() => new Response("Rate-limit for integration is reached", { status: 429, headers: { "Retry-After": "60" } }));
    expect(await grafanaoncall.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Grafana OnCall: HTTP 429: Rate-limit for integration is reached",
      retryable: true,
      retryAfterMs: 60_000,
    });
    fake.answer(() => new Response("", { status: 502 }));
    expect(await grafanaoncall.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Grafana OnCall: HTTP 502", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await grafanaoncall.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const url = `http://127.0.0.1:${await closedPort()}${PATH}`;
    expect(await grafanaoncall.send({ url }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("grafanaoncall validate", () => {
  const url = `https://oncall.example.com${PATH}`;
  const error = (input: Record<string, unknown>) => {
    const result = grafanaoncall.validate(input);
    return result.ok ? null : result.error;
  };

  test("normalises: trims, drops unknown fields", () => {
    expect(grafanaoncall.validate({ url: ` ${url} `, x: 1 })).toEqual({ ok: true, config: { url } });
  });

  test("the URL: required, http(s), an OnCall webhook integration's", () => {
    expect(error({})).toEqual({ code: "WEBHOOK_URL_REQUIRED", message: "Webhook URL is required" });
    expect(error({ url: "oncall.example.com" })).toEqual({ code: "WEBHOOK_URL_INVALID", message: "Webhook URL must start with http:// or https://" });
    expect(error({ url: "https://oncall.example.com/integrations/v1/alertmanager/K3y/" })).toEqual({
      code: "WEBHOOK_URL_SHAPE",
      message: "This is not a Grafana OnCall webhook URL: it looks like https://oncall.example.com/integrations/v1/formatted_webhook/…/",
    });
  });

  test("secrets, rate limit, target", () => {
    expect(grafanaoncall.secretFields).toEqual(["url"]);
    expect(grafanaoncall.perMinute).toBe(60);
    expect(grafanaoncall.target!({ url })).toEqual({ url });
  });
});
