import { afterEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import type { NotificationEvent } from "../public";
import { alertmanager } from "./alertmanager";
import type { NotificationMessage } from "./provider";
import { closedPort, context, EVENT, type Fake, MESSAGE, never, NOW, startFake } from "./test-fake";

const LINES = "URL: https://shop.example.com/health?a=1&b=2\nError: HTTP 503\nTime: 2026-11-23 11:02:03 (UTC+08:00)";
const AT = new Date(NOW).toISOString();
const AGENT = { type: "agent" as const, id: 3, name: "db-1" };
const sha16 = (key: string) => createHash("sha256").update(key).digest("hex").slice(0, 16);

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = () => ({ url: `${fake!.url}/api/v1/webhook/alertmanager` });
const withEvents = (...events: NotificationEvent[]): NotificationMessage => ({ ...MESSAGE, events });
const event = (kind: NotificationEvent["kind"], extra: Partial<NotificationEvent> = {}): NotificationEvent => ({ ...EVENT, kind, ...extra });
type Payload = { status: string; alerts: { status: string; labels: Record<string, string>; fingerprint: string; startsAt: string; endsAt: string }[] };

describe("alertmanager send", () => {
  test("a down event POSTs a version 4 payload: one firing alert with labels, annotations, start, fingerprint", async () => {
    fake = startFake();
    expect(await alertmanager.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/api/v1/webhook/alertmanager");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.headers.authorization).toBeUndefined();
    const labels = { alertname: "VigilMonitorDown", severity: "critical", monitor: "Shop API", monitor_id: "7" };
    const annotations = { summary: MESSAGE.title, description: LINES };
    expect(request.json).toEqual({
      version: "4",
      groupKey: '{}:{alertname="VigilMonitorDown"}',
      truncatedAlerts: 0,
      status: "firing",
      receiver: "vigil",
      groupLabels: { alertname: "VigilMonitorDown" },
      commonLabels: labels,
      commonAnnotations: annotations,
      externalURL: "",
      alerts: [{ status: "firing", labels, annotations, startsAt: AT, endsAt: "0001-01-01T00:00:00Z", generatorURL: "", fingerprint: sha16("vigil-monitor-7") }],
    });
  });

  test("the recovery resolves: the same labels and fingerprint, started when the outage began, ended now", async () => {
    fake = startFake();
    await alertmanager.send(config(), MESSAGE, context(fake));
    await alertmanager.send(config(), { ...MESSAGE, severity: "ok", events: [event("recovery", { facts: { downtimeSeconds: 300 } })] }, context(fake));
    await alertmanager.send(config(), withEvents(event("reminder")), context(fake));
    const [down, up, reminder] = fake.received.map((r) => r.json as Payload);
    expect(up!.status).toBe("resolved");
    expect(up!.alerts[0]).toMatchObject({ status: "resolved", startsAt: new Date(NOW - 300_000).toISOString(), endsAt: AT });
    for (const other of [up!, reminder!]) {
      expect(other.alerts[0]!.labels).toEqual(down!.alerts[0]!.labels);
      expect(other.alerts[0]!.fingerprint).toBe(down!.alerts[0]!.fingerprint);
    }
  });

  test("agents and their conditions: names, labels, severities; a mixed message fires with only the common labels", async () => {
    fake = startFake();
    const agent = (kind: NotificationEvent["kind"], facts: NotificationEvent["facts"] = {}) => event(kind, { target: AGENT, facts });
    await alertmanager.send(config(), withEvents(agent("offline"), agent("disk", { mountPoint: "/var" }), agent("container", { container: "web", containerProblem: "unhealthy" })), context(fake));
    const payload = fake.received[0].json as Payload & Record<string, unknown>;
    expect(payload.status).toBe("firing");
    expect(payload.alerts.map((a) => a.labels)).toEqual([
      { alertname: "VigilAgentOffline", severity: "critical", agent: "db-1", agent_id: "3" },
      { alertname: "VigilDiskHigh", severity: "warning", agent: "db-1", agent_id: "3", mountpoint: "/var" },
      { alertname: "VigilContainerProblem", severity: "warning", agent: "db-1", agent_id: "3", container: "web", problem: "unhealthy" },
    ]);
    expect(payload.alerts.map((a) => a.fingerprint)).toEqual([sha16("vigil-agent-3"), sha16("vigil-agent-3-disk-/var"), sha16("vigil-agent-3-container-web-unhealthy")]);
    expect(payload).toMatchObject({ groupKey: "{}:{}", groupLabels: {}, commonLabels: { agent: "db-1", agent_id: "3" } });
    await alertmanager.send(config(), withEvents(agent("online")), context(fake));
    expect((fake.received[1].json as Payload).alerts[0]).toMatchObject({ status: "resolved", labels: payload.alerts[0]!.labels, fingerprint: sha16("vigil-agent-3"), startsAt: AT });
  });

  test("a test fires and resolves at once; with a token, a bearer header", async () => {
    fake = startFake();
    await alertmanager.send({ ...config(), token: "s3cret-token" }, withEvents(event("test", { target: { type: "channel", id: 4, name: "" } })), context(fake));
    expect(fake.received.map((r) => r.headers.authorization)).toEqual(["Bearer s3cret-token", "Bearer s3cret-token"]);
    const [fired, resolved] = fake.received.map((r) => r.json as Payload);
    expect(fired!.alerts[0]).toMatchObject({ status: "firing", labels: { alertname: "VigilTest", severity: "info", channel: "channel 4", channel_id: "4" } });
    expect(resolved).toMatchObject({ status: "resolved", alerts: [{ status: "resolved", fingerprint: fired!.alerts[0]!.fingerprint }] });
  });

  test("any 2xx is a success; a 4xx is final and the URL's keys and the token never show", async () => {
    fake = startFake(() => new Response("", { status: 204 }));
    const url = `${fake.url}/hook?apikey=K3yInTheQuery`;
    expect(await alertmanager.send({ url, token: "s3cret-token" }, MESSAGE, context(fake))).toEqual({ ok: true });
    fake.answer(() => new Response("bad key K3yInTheQuery or token s3cret-token", { status: 401 }));
    expect(await alertmanager.send({ url, token: "s3cret-token" }, MESSAGE, context(fake))).toEqual({ ok: false, error: "Alertmanager webhook: HTTP 401: bad key •••• or token ••••", retryable: false });
  });

  test("429 with Retry-After is retryable after it; a 5xx is retryable; no events: nothing sent", async () => {
    fake = startFake(() => new Response("", { status: 429, headers: { "Retry-After": "7" } }));
    expect(await alertmanager.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Alertmanager webhook: HTTP 429", retryable: true, retryAfterMs: 7000 });
    fake.answer(() => new Response("oops", { status: 500 }));
    expect(await alertmanager.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Alertmanager webhook: HTTP 500: oops", retryable: true });
    expect(await alertmanager.send(config(), withEvents(), context(fake))).toEqual({ ok: true });
    expect(fake.received).toHaveLength(2);
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await alertmanager.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const url = `http://127.0.0.1:${await closedPort()}/hook`;
    expect(await alertmanager.send({ url }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("alertmanager validate", () => {
  const url = "https://keep.example.com/alerts/event/alertmanager";
  const error = (input: Record<string, unknown>) => {
    const result = alertmanager.validate(input);
    return result.ok ? null : result.error;
  };

  test("normalises: trims, drops a blank token and unknown fields", () => {
    expect(alertmanager.validate({ url: ` ${url} `, token: " ", x: 1 })).toEqual({ ok: true, config: { url } });
    expect(alertmanager.validate({ url, token: " abc " })).toEqual({ ok: true, config: { url, token: "abc" } });
  });

  test("the URL: required, http(s), any path; the token one word", () => {
    expect(error({})).toEqual({ code: "WEBHOOK_URL_REQUIRED", message: "Webhook URL is required" });
    expect(error({ url: "keep.example.com" })).toEqual({ code: "WEBHOOK_URL_INVALID", message: "Webhook URL must start with http:// or https://" });
    expect(error({ url, token: "a b" })).toEqual({ code: "VALIDATION", message: "token must not contain spaces or non-ASCII characters" });
  });

  test("secrets (the URL masked like the webhook's), rate limit, target", () => {
    expect(alertmanager.secretFields).toEqual(["url", "token"]);
    expect(alertmanager.masks!.url!("https://u:p@keep.example.com/hook?k=1")).toBe("https://••••@keep.example.com/hook?••••");
    expect(alertmanager.perMinute).toBe(60);
    expect(alertmanager.target!({ url })).toEqual({ url });
  });
});
