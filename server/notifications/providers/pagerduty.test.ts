import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs, NotificationEvent } from "../public";
import { dedupKey, pagerduty } from "./pagerduty";
import type { NotificationMessage } from "./provider";
import { closedPort, context, EVENT, type Fake, MESSAGE, never, NOW, startFake } from "./test-fake";

const KEY = "R0123456789abcdefABCDEF012345678";
const CONFIG: ChannelConfigs["pagerduty"] = { routingKey: KEY };
const ACCEPTED = () => Response.json({ status: "success", message: "Event processed", dedup_key: "vigil-monitor-7" }, { status: 202 });
const AGENT = { type: "agent" as const, id: 3, name: "db-1" };

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

/** The fake stands in for events.pagerduty.com. */
const ctx = (overrides: Parameters<typeof context>[1] = {}) => context(fake!, { endpoints: { telegram: "", resend: "", pagerduty: fake!.url }, ...overrides });
const withEvents = (...events: NotificationEvent[]): NotificationMessage => ({ ...MESSAGE, events });
const event = (kind: NotificationEvent["kind"], extra: Partial<NotificationEvent> = {}): NotificationEvent => ({ ...EVENT, kind, ...extra });

describe("pagerduty send", () => {
  test("a down event triggers: routing key, dedup key, payload with summary, source, severity, time and lines", async () => {
    fake = startFake(ACCEPTED);
    expect(await pagerduty.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v2/enqueue");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({
      routing_key: KEY,
      dedup_key: "vigil-monitor-7",
      event_action: "trigger",
      payload: {
        summary: MESSAGE.title,
        source: "Shop API",
        severity: "critical",
        timestamp: new Date(NOW).toISOString(),
        custom_details: { lines: MESSAGE.lines },
      },
    });
  });

  test("the recovery resolves with the same dedup key and no payload", async () => {
    fake = startFake(ACCEPTED);
    await pagerduty.send(CONFIG, MESSAGE, ctx());
    await pagerduty.send(CONFIG, { ...MESSAGE, severity: "ok", title: "🟢 Monitor up: Shop API", events: [event("recovery")] }, ctx());
    const [trigger, resolve] = fake.received.map((r) => r.json as Record<string, unknown>);
    expect(trigger.event_action).toBe("trigger");
    expect(resolve).toEqual({ routing_key: KEY, dedup_key: "vigil-monitor-7", event_action: "resolve" });
    expect(resolve.dedup_key).toBe(trigger.dedup_key);
  });

  test("agents: offline/online share a key; usage conditions have their own, disk per mount point", async () => {
    fake = startFake(ACCEPTED);
    const agent = (kind: NotificationEvent["kind"], facts: NotificationEvent["facts"] = {}) => event(kind, { target: AGENT, facts });
    const events = [agent("offline"), agent("online"), agent("cpu", { usage: 97, threshold: 90 }), agent("memory"), agent("disk", { mountPoint: "/var" })];
    await pagerduty.send(CONFIG, withEvents(...events), ctx());
    expect(fake.received.map((r) => r.json)).toMatchObject([
      { event_action: "trigger", dedup_key: "vigil-agent-3", payload: { severity: "critical", source: "db-1" } },
      { event_action: "resolve", dedup_key: "vigil-agent-3" },
      { event_action: "trigger", dedup_key: "vigil-agent-3-cpu", payload: { severity: "warning" } },
      { event_action: "trigger", dedup_key: "vigil-agent-3-memory", payload: { severity: "warning" } },
      { event_action: "trigger", dedup_key: "vigil-agent-3-disk-/var", payload: { severity: "warning" } },
    ]);
  });

  test("reminders and tests trigger at info severity; a reminder joins the down alert; a test resolves at once", async () => {
    fake = startFake(ACCEPTED);
    const ping = event("test", { target: { type: "channel", id: 4, name: "" } });
    await pagerduty.send(CONFIG, withEvents(event("reminder"), ping), ctx());
    expect(fake.received.map((r) => r.json)).toMatchObject([
      { event_action: "trigger", dedup_key: "vigil-monitor-7", payload: { severity: "info" } },
      { event_action: "trigger", dedup_key: "vigil-channel-4", payload: { severity: "info", source: "channel 4" } },
      { event_action: "resolve", dedup_key: "vigil-channel-4" },
    ]);
    expect(fake.received[2]!.json).not.toHaveProperty("payload");
  });

  test("a grouped message sends one event each, in order, and stops at the first failure", async () => {
    fake = startFake((request) =>
      (request.json as { dedup_key: string }).dedup_key === "vigil-monitor-8"
        ? Response.json({ status: "invalid event", message: "Event object is invalid", errors: ["'payload.source' is missing or blank"] }, { status: 400 })
        : ACCEPTED(),
    );
    const second = event("down", { target: { type: "monitor", id: 8, name: "Blog" } });
    const third = event("down", { target: { type: "monitor", id: 9, name: "Docs" } });
    expect(await pagerduty.send(CONFIG, withEvents(EVENT, second, third), ctx())).toEqual({
      ok: false,
      error: "PagerDuty: Event object is invalid: 'payload.source' is missing or blank",
      retryable: false,
    });
    expect(fake.received.map((r) => (r.json as { dedup_key: string }).dedup_key)).toEqual(["vigil-monitor-7", "vigil-monitor-8"]);
  });

  test("the summary is cut to 1024 characters; no events: nothing sent", async () => {
    fake = startFake(ACCEPTED);
    await pagerduty.send(CONFIG, { ...MESSAGE, title: "s".repeat(2000) }, ctx());
    expect((fake.received[0].json as { payload: { summary: string } }).payload.summary).toBe(`${"s".repeat(1023)}…`);
    expect(await pagerduty.send(CONFIG, withEvents(), ctx())).toEqual({ ok: true });
    expect(fake.received).toHaveLength(1);
  });

  test("without an override the real host is used", async () => {
    const urls: string[] = [];
    const recording = Object.assign(async (url: string | URL | Request) => (urls.push(String(url)), Response.json({ status: "success" }, { status: 202 })), {
      preconnect: fetch.preconnect,
    });
    expect(await pagerduty.send(CONFIG, MESSAGE, context(null, { fetch: recording as typeof fetch }))).toEqual({ ok: true });
    expect(urls).toEqual(["https://events.pagerduty.com/v2/enqueue"]);
  });

  test("a 2xx whose status is not success is a failure", async () => {
    fake = startFake(() => new Response("<html>PagerDuty</html>", { status: 200 }));
    expect(await pagerduty.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "PagerDuty: HTTP 200: <html>PagerDuty</html>", retryable: false });
  });

  test("400 is final with PagerDuty's message and errors, and the key never shows", async () => {
    fake = startFake(() =>
      Response.json({ status: "invalid event", message: "Event object is invalid", errors: [`Invalid routing key ${KEY}`, "x"] }, { status: 400 }),
    );
    expect(await pagerduty.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "PagerDuty: Event object is invalid: Invalid routing key ••••; x", retryable: false });
  });

  test("429 with Retry-After is retryable after it; a 5xx is retryable", async () => {
    fake = startFake(() => new Response("", { status: 429, headers: { "Retry-After": "15" } }));
    expect(await pagerduty.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "PagerDuty: HTTP 429", retryable: true, retryAfterMs: 15_000 });
    fake.answer(() => Response.json({ status: "error", message: "Internal error" }, { status: 500 }));
    expect(await pagerduty.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "PagerDuty: Internal error", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await pagerduty.send(CONFIG, MESSAGE, ctx({ timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}`;
    expect(await pagerduty.send(CONFIG, MESSAGE, context(null, { endpoints: { telegram: "", resend: "", pagerduty: closed } }))).toEqual({
      ok: false,
      error: "connection refused",
      retryable: true,
    });
  });
});

describe("pagerduty dedup key", () => {
  test("stable per target and condition, at most 255 characters", () => {
    expect(dedupKey(EVENT)).toBe("vigil-monitor-7");
    expect(dedupKey(event("recovery"))).toBe("vigil-monitor-7");
    expect(dedupKey(event("disk", { target: AGENT, facts: {} }))).toBe("vigil-agent-3-disk");
    expect(dedupKey(event("disk", { target: AGENT, facts: { mountPoint: `/${"m".repeat(400)}` } }))).toHaveLength(255);
  });
});

describe("pagerduty validate", () => {
  const error = (input: Record<string, unknown>) => {
    const result = pagerduty.validate(input);
    return result.ok ? null : result.error;
  };

  test("normalises: trims, drops unknown fields", () => {
    expect(pagerduty.validate({ routingKey: ` ${KEY} `, severity: "high" })).toEqual({ ok: true, config: CONFIG });
  });

  test("the key: required, 32 letters and digits; never echoed", () => {
    expect(error({})).toEqual({ code: "PAGERDUTY_KEY_INVALID", message: "Integration key is required" });
    const invalid = { code: "PAGERDUTY_KEY_INVALID", message: "Integration key must be 32 letters and digits" };
    expect(error({ routingKey: KEY.slice(1) })).toEqual(invalid);
    expect(error({ routingKey: `${KEY}9` })).toEqual(invalid);
    expect(error({ routingKey: `${KEY.slice(1)}-` })).toEqual(invalid);
    expect(error({ routingKey: 32 })).toEqual({ code: "VALIDATION", message: "routingKey must be a string (got a number)" });
  });

  test("secrets, rate limit", () => {
    expect(pagerduty.secretFields).toEqual(["routingKey"]);
    expect(pagerduty.perMinute).toBe(120);
  });
});
