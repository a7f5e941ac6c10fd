import { afterEach, describe, expect, test } from "bun:test";
import type { ChannelConfigs, NotificationEvent } from "../public";
import { opsgenie } from "./opsgenie";
import type { NotificationMessage } from "./provider";
import { closedPort, context, EVENT, type Fake, MESSAGE, never, startFake } from "./test-fake";

const KEY = "1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d";
const CONFIG: ChannelConfigs["opsgenie"] = { apiKey: KEY, region: "us" };
const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const QUEUED = () => Response.json({ result: "Request will be processed", took: 0.302, requestId: "43a29c5c-3dbf-4fa4-9c26-f4f71023e120" }, { status: 202 });
const AGENT = { type: "agent" as const, id: 3, name: "db-1" };

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

/** The fake stands in for api.opsgenie.com / api.eu.opsgenie.com. */
const ctx = (overrides: Parameters<typeof context>[1] = {}) => context(fake!, { endpoints: { telegram: "", resend: "", opsgenie: fake!.url }, ...overrides });
const withEvents = (...events: NotificationEvent[]): NotificationMessage => ({ ...MESSAGE, events });
const event = (kind: NotificationEvent["kind"], extra: Partial<NotificationEvent> = {}): NotificationEvent => ({ ...EVENT, kind, ...extra });

describe("opsgenie send", () => {
  test("a down event creates an alert: GenieKey, alias, message, description, source, entity, priority P3", async () => {
    fake = startFake(QUEUED);
    expect(await opsgenie.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v2/alerts");
    expect(request.headers.authorization).toBe(`GenieKey ${KEY}`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({ message: MESSAGE.title, alias: "vigil-monitor-7", description: LINES, source: "Vigil", entity: "Shop API", priority: "P3" });
  });

  test("the recovery closes the alert by the same alias", async () => {
    fake = startFake(QUEUED);
    await opsgenie.send(CONFIG, MESSAGE, ctx());
    const up = { ...MESSAGE, severity: "ok" as const, title: "🟢 Monitor up: Shop API", events: [event("recovery")] };
    expect(await opsgenie.send(CONFIG, up, ctx())).toEqual({ ok: true });
    const [create, close] = fake.received;
    expect((create!.json as { alias: string }).alias).toBe("vigil-monitor-7");
    expect(close!.path).toBe("/v2/alerts/vigil-monitor-7/close?identifierType=alias");
    expect(close!.headers.authorization).toBe(`GenieKey ${KEY}`);
    expect(close!.json).toEqual({ source: "Vigil", note: "🟢 Monitor up: Shop API" });
  });

  test("agents: offline and online share an alias; usage a step lower and per condition, disk per mount point", async () => {
    fake = startFake(QUEUED);
    const agent = (kind: NotificationEvent["kind"], facts: NotificationEvent["facts"] = {}) => event(kind, { target: AGENT, facts });
    await opsgenie.send({ ...CONFIG, priority: 1 }, withEvents(agent("offline"), agent("online"), agent("cpu"), agent("disk", { mountPoint: "/var" })), ctx());
    expect(fake.received.map((r) => [r.path, (r.json as { alias?: string; priority?: string }).priority ?? null])).toEqual([
      ["/v2/alerts", "P1"],
      ["/v2/alerts/vigil-agent-3/close?identifierType=alias", null],
      ["/v2/alerts", "P2"],
      ["/v2/alerts", "P2"],
    ]);
    expect(fake.received.map((r) => (r.json as { alias?: string }).alias)).toEqual(["vigil-agent-3", undefined, "vigil-agent-3-cpu", "vigil-agent-3-disk-/var"]);
    await opsgenie.send(CONFIG, withEvents(agent("disk", { mountPoint: "/var" })), ctx());
    expect(fake.received.at(-1)!.json).toMatchObject({ priority: "P4" });
  });

  test("a test creates at P5 and closes at once; a reminder joins the open alert", async () => {
    fake = startFake(QUEUED);
    const ping = event("test", { target: { type: "channel", id: 4, name: "" } });
    await opsgenie.send({ ...CONFIG, priority: 2 }, withEvents(event("reminder"), ping), ctx());
    expect(fake.received.map((r) => [r.path, r.json])).toMatchObject([
      ["/v2/alerts", { alias: "vigil-monitor-7", priority: "P2" }],
      ["/v2/alerts", { alias: "vigil-channel-4", priority: "P5", entity: "channel 4" }],
      ["/v2/alerts/vigil-channel-4/close?identifierType=alias", { source: "Vigil" }],
    ]);
  });

  test("the EU region and the US one on the real hosts; the message cut to 130 characters", async () => {
    const urls: string[] = [];
    const recording = Object.assign(async (url: string | URL | Request) => (urls.push(String(url)), Response.json({ requestId: "r" }, { status: 202 })), {
      preconnect: fetch.preconnect,
    });
    const real = context(null, { fetch: recording as typeof fetch });
    expect(await opsgenie.send({ ...CONFIG, region: "eu" }, MESSAGE, real)).toEqual({ ok: true });
    expect(await opsgenie.send(CONFIG, withEvents(event("recovery")), real)).toEqual({ ok: true });
    expect(urls).toEqual(["https://api.eu.opsgenie.com/v2/alerts", "https://api.opsgenie.com/v2/alerts/vigil-monitor-7/close?identifierType=alias"]);
    fake = startFake(QUEUED);
    await opsgenie.send(CONFIG, { ...MESSAGE, title: "t".repeat(200) }, ctx());
    expect((fake.received[0].json as { message: string }).message).toBe(`${"t".repeat(129)}…`);
  });

  test("a grouped message stops at the first failure; 422 is final with Opsgenie's message and errors", async () => {
    fake = startFake((request) =>
      (request.json as { alias: string }).alias === "vigil-monitor-8"
        ? Response.json({ message: "Request body is not processable. Please check the errors.", errors: { message: "Message can not be empty." }, took: 0.01, requestId: "x" }, { status: 422 })
        : QUEUED(),
    );
    const second = event("down", { target: { type: "monitor", id: 8, name: "Blog" } });
    const third = event("down", { target: { type: "monitor", id: 9, name: "Docs" } });
    expect(await opsgenie.send(CONFIG, withEvents(EVENT, second, third), ctx())).toEqual({
      ok: false,
      error: "Opsgenie: Request body is not processable. Please check the errors.: Message can not be empty.",
      retryable: false,
    });
    expect(fake.received).toHaveLength(2);
  });

  test("a 2xx without a requestId is a failure; 401 is final and the key never shows", async () => {
    fake = startFake(() => new Response("<html>Opsgenie</html>", { status: 200 }));
    expect(await opsgenie.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Opsgenie: HTTP 200: <html>Opsgenie</html>", retryable: false });
    fake.answer(() => Response.json({ message: `Could not authenticate with key ${KEY}`, took: 0, requestId: "r" }, { status: 401 }));
    expect(await opsgenie.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Opsgenie: Could not authenticate with key ••••", retryable: false });
  });

  test("429 with Retry-After is retryable after it; a 5xx is retryable", async () => {
    fake = startFake(() => Response.json({ message: "You are making too many requests!", took: 0, requestId: "r" }, { status: 429, headers: { "Retry-After": "20" } }));
    expect(await opsgenie.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Opsgenie: You are making too many requests!", retryable: true, retryAfterMs: 20_000 });
    fake.answer(() => new Response("", { status: 503 }));
    expect(await opsgenie.send(CONFIG, MESSAGE, ctx())).toEqual({ ok: false, error: "Opsgenie: HTTP 503", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await opsgenie.send(CONFIG, MESSAGE, ctx({ timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const closed = `http://127.0.0.1:${await closedPort()}`;
    expect(await opsgenie.send(CONFIG, MESSAGE, context(null, { endpoints: { telegram: "", resend: "", opsgenie: closed } }))).toEqual({
      ok: false,
      error: "connection refused",
      retryable: true,
    });
  });
});

describe("opsgenie validate", () => {
  const error = (input: Record<string, unknown>) => {
    const result = opsgenie.validate(input);
    return result.ok ? null : result.error;
  };

  test("normalises: trims, the region defaults to us, a blank priority and unknown fields dropped", () => {
    expect(opsgenie.validate({ apiKey: ` ${KEY} `, region: "", priority: "", tags: "x" })).toEqual({ ok: true, config: CONFIG });
    expect(opsgenie.validate({ apiKey: KEY, region: "eu", priority: "1" })).toEqual({ ok: true, config: { apiKey: KEY, region: "eu", priority: 1 } });
  });

  test("the key: required, a UUID; never echoed", () => {
    expect(error({})).toEqual({ code: "OPSGENIE_KEY_INVALID", message: "API key is required" });
    const invalid = { code: "OPSGENIE_KEY_INVALID", message: "The API key of an API integration looks like 1a2b3c4d-1a2b-1a2b-1a2b-1a2b3c4d5e6f" };
    expect(error({ apiKey: KEY.slice(1) })).toEqual(invalid);
    expect(error({ apiKey: KEY.replace(/-/g, "") })).toEqual(invalid);
    expect(error({ apiKey: 5 })).toEqual({ code: "VALIDATION", message: "apiKey must be a string (got a number)" });
  });

  test("region us or eu; priority 1-5", () => {
    expect(error({ apiKey: KEY, region: "asia" })).toEqual({ code: "VALIDATION", message: 'region must be "us" or "eu" (got "asia")' });
    expect(error({ apiKey: KEY, priority: 6 })).toEqual({ code: "VALIDATION", message: "priority must be a whole number from 1 to 5 (got number 6)" });
    expect(error({ apiKey: KEY, priority: 0 })?.code).toBe("VALIDATION");
  });

  test("secrets, rate limit, no user URL", () => {
    expect(opsgenie.secretFields).toEqual(["apiKey"]);
    expect(opsgenie.perMinute).toBe(60);
    expect(opsgenie.target).toBeUndefined();
  });
});
