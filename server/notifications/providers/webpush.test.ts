import { afterEach, describe, expect, test } from "bun:test";
import webPush from "web-push";
import { startPushService, type FakeDevice, type PushServiceFake } from "../../push/test-push-service";
import type { NotificationEvent } from "../public";
import type { NotificationMessage, PushContext, PushDevice } from "./provider";
import { closedPort, context, EVENT, MESSAGE, NOW } from "./test-fake";
import { MAX_PAYLOAD_BYTES, payloadOf, TTL_SECONDS, webpush } from "./webpush";

// The webpush provider at the protocol level: a local push service decrypts every message with the device's own
// private key (RFC 8291, node:crypto) and verifies the VAPID JWT (ES256, jose); its answers drive the verdicts.

const VAPID = webPush.generateVAPIDKeys();
const SUBJECT = "mailto:ops@example.com";

let service: PushServiceFake | undefined;
afterEach(() => {
  service?.stop();
  service = undefined;
});

/** A PushContext over fake devices: who has which, and what was recorded. */
function pushContext(devices: { userId: number; device: FakeDevice }[]) {
  const recorded: { id: number; outcome: Parameters<PushContext["record"]>[1] }[] = [];
  const asked: Parameters<PushContext["devices"]>[0][] = [];
  const list: PushDevice[] = devices.map(({ userId, device }, i) => ({ id: i + 1, userId, endpoint: device.subscription.endpoint, keys: device.subscription.keys }));
  const push: PushContext = {
    async devices(to) {
      asked.push(to);
      return list.filter((d) => to.userIds?.includes(d.userId));
    },
    vapid: async () => ({ subject: SUBJECT, ...VAPID }),
    async record(id, outcome) {
      recorded.push({ id, outcome });
    },
  };
  return { push, recorded, asked };
}

const event = (over: Partial<NotificationEvent>): NotificationEvent => ({ ...EVENT, ...over });
const message = (over: Partial<NotificationMessage>): NotificationMessage => ({ ...MESSAGE, ...over });

describe("webpush send", () => {
  test("each device of the named people gets the alert, encrypted to it and signed with the server's VAPID key", async () => {
    service = startPushService();
    const phone = service.device("phone");
    const laptop = service.device("laptop");
    const other = service.device("someone else");
    const { push, recorded, asked } = pushContext([
      { userId: 1, device: phone },
      { userId: 1, device: laptop },
      { userId: 2, device: other },
    ]);
    expect(await webpush.send({ userIds: [1] }, MESSAGE, context(null, { push }))).toEqual({ ok: true });
    expect(asked).toEqual([{ userIds: [1] }]);
    expect(service.rejected).toEqual([]);
    expect(service.received.map((r) => r.device).sort()).toEqual(["laptop", "phone"]);
    for (const r of service.received) {
      expect(r.payload).toEqual({
        title: MESSAGE.title,
        body: MESSAGE.lines.join("\n"),
        severity: "critical",
        url: "/monitors/7",
        tag: "monitor-7-status",
        timestamp: NOW,
      });
      expect(r.headers).toMatchObject({ ttl: String(TTL_SECONDS), urgency: "high", topic: "monitor-7-status", "content-encoding": "aes128gcm", "content-type": "application/octet-stream" });
      // The VAPID JWT: ES256, for the push service's origin, our contact, expiring within 24 hours.
      expect(r.alg).toBe("ES256");
      expect(r.vapidKey).toBe(VAPID.publicKey);
      expect(r.claims.aud).toBe(service.url);
      expect(r.claims.sub).toBe(SUBJECT);
      expect(r.claims.exp! * 1000).toBeGreaterThan(Date.now());
      expect(r.claims.exp! * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    }
    expect(recorded.map((r) => r.outcome)).toEqual([{ ok: true }, { ok: true }]);
  });

  test("a recovery shares the down's tag (it replaces the notification), at normal urgency", async () => {
    service = startPushService();
    const { push } = pushContext([{ userId: 1, device: service.device() }]);
    const recovery = message({ severity: "ok", title: "🟢 Monitor recovered: Shop API", events: [event({ kind: "recovery" })] });
    expect(await webpush.send({ userIds: [1] }, recovery, context(null, { push }))).toEqual({ ok: true });
    expect(service.received[0]!.payload).toMatchObject({ severity: "ok", tag: "monitor-7-status", url: "/monitors/7" });
    expect(service.received[0]!.headers.urgency).toBe("normal");
  });

  test("an agent's page and tags; a container's tag is per container", async () => {
    service = startPushService();
    const { push } = pushContext([{ userId: 1, device: service.device() }]);
    const agent = { type: "agent" as const, id: 3, name: "db-1" };
    await webpush.send({ userIds: [1] }, message({ events: [event({ kind: "offline", target: agent })] }), context(null, { push }));
    await webpush.send({ userIds: [1] }, message({ events: [event({ kind: "container", target: agent, facts: { container: "web" } })] }), context(null, { push }));
    await webpush.send({ userIds: [1] }, message({ events: [event({ kind: "container", target: agent, facts: { container: "db" } })] }), context(null, { push }));
    const [offline, web, db] = service.received.map((r) => r.payload);
    expect(offline).toMatchObject({ url: "/agents/3", tag: "agent-3-status" });
    expect(web!.tag).toMatch(/^agent-3-container-[0-9a-f]{8}$/);
    expect(db!.tag).toMatch(/^agent-3-container-[0-9a-f]{8}$/);
    expect(web!.tag).not.toBe(db!.tag);
  });

  test("an event's acknowledgement link comes along, with the action's label in the message's language", async () => {
    service = startPushService();
    const { push } = pushContext([{ userId: 1, device: service.device() }]);
    const ackUrl = "https://vigil.example.com/ack/abc.def";
    const withAck = event({ facts: { ...EVENT.facts, ackUrl } as NotificationEvent["facts"] });
    await webpush.send({ userIds: [1] }, message({ events: [withAck] }), context(null, { push }));
    await webpush.send({ userIds: [1] }, message({ lang: "zh-CN", events: [withAck] }), context(null, { push }));
    expect(service.received.map((r) => [r.payload.ackUrl, r.payload.ackLabel])).toEqual([
      [ackUrl, "Acknowledge"],
      [ackUrl, "确认"],
    ]);
  });

  test("a storm message about several targets opens the dashboard and carries no tag", async () => {
    service = startPushService();
    const { push } = pushContext([{ userId: 1, device: service.device() }]);
    const storm = message({ title: "2 monitors down", events: [EVENT, event({ target: { type: "monitor", id: 8, name: "Blog" } })] });
    await webpush.send({ userIds: [1] }, storm, context(null, { push }));
    const [r] = service.received;
    expect(r!.payload).toMatchObject({ url: "/dashboard", title: "2 monitors down" });
    expect(r!.payload.tag).toBeUndefined();
    expect(r!.headers.topic).toBeUndefined();
  });

  test("a long message fits one 4 KB push: lines dropped from the end, then the last one cut", async () => {
    service = startPushService();
    const { push } = pushContext([{ userId: 1, device: service.device() }]);
    const lines = Array.from({ length: 80 }, (_, i) => `Line ${i}: ${"é".repeat(40)}`);
    await webpush.send({ userIds: [1] }, message({ lines }), context(null, { push }));
    await webpush.send({ userIds: [1] }, message({ lines: ["\"".repeat(6000)] }), context(null, { push }));
    expect(service.rejected).toEqual([]);
    const [many, one] = service.received;
    for (const r of [many!, one!]) {
      expect(r.size).toBeLessThanOrEqual(4096);
      expect(Buffer.byteLength(JSON.stringify(r.payload))).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    }
    const body = String(many!.payload.body).split("\n");
    expect(body[0]).toBe(lines[0]);
    expect(body.at(-1)).toBe("…");
    expect(body.length).toBeLessThan(lines.length);
    expect(String(one!.payload.body).endsWith("…")).toBe(true);
    expect(payloadOf(message({ lines: ["short"] }))).toContain('"body":"short"');
  });
});

describe("webpush verdicts", () => {
  test("404/410: the device is gone and removed; delivered when another device took it", async () => {
    service = startPushService();
    const phone = service.device("phone");
    const old = service.device("old");
    service.answer((name) => (name === "old" ? new Response("push subscription has unsubscribed or expired", { status: 410 }) : new Response(null, { status: 201 })));
    const { push, recorded } = pushContext([
      { userId: 1, device: phone },
      { userId: 1, device: old },
    ]);
    expect(await webpush.send({ userIds: [1] }, MESSAGE, context(null, { push }))).toEqual({ ok: true });
    expect(recorded).toContainEqual({ id: 1, outcome: { ok: true } });
    expect(recorded).toContainEqual({ id: 2, outcome: { ok: false, gone: true, error: expect.stringContaining("HTTP 410") } });
  });

  test("the only device gone: a final failure that says it was removed", async () => {
    service = startPushService();
    service.answer(() => new Response(null, { status: 404 }));
    const { push, recorded } = pushContext([{ userId: 1, device: service.device() }]);
    const result = await webpush.send({ userIds: [1] }, MESSAGE, context(null, { push }));
    expect(result).toEqual({ ok: false, retryable: false, error: `127.0.0.1:${new URL(service.url).port}: HTTP 404 (unsubscribed: the device was removed)` });
    expect(recorded[0]!.outcome).toMatchObject({ ok: false, gone: true });
  });

  test("429 and 5xx are retried, after Retry-After; the error names the host, never the endpoint or the JWT", async () => {
    service = startPushService();
    const device = service.device();
    const { push, recorded } = pushContext([{ userId: 1, device }]);
    service.answer(() => new Response("slow down", { status: 429, headers: { "retry-after": "120" } }));
    const limited = await webpush.send({ userIds: [1] }, MESSAGE, context(null, { push }));
    expect(limited).toMatchObject({ ok: false, retryable: true, retryAfterMs: 120_000, error: expect.stringContaining("HTTP 429: slow down") });
    service.answer(() => new Response(`upstream failed for ${device.subscription.endpoint}`, { status: 503 }));
    const down = await webpush.send({ userIds: [1] }, MESSAGE, context(null, { push }));
    expect(down).toMatchObject({ ok: false, retryable: true });
    expect(JSON.stringify(down)).not.toContain(new URL(device.subscription.endpoint).pathname);
    expect(recorded.map((r) => r.outcome.ok)).toEqual([false, false]);
    expect(recorded.every((r) => !("gone" in r.outcome) || !r.outcome.gone)).toBe(true);
  });

  test("a refusal (403: a key the service does not accept) is final; a network error is retried", async () => {
    service = startPushService();
    service.answer(() => new Response("invalid JWT", { status: 403 }));
    const { push } = pushContext([{ userId: 1, device: service.device() }]);
    expect(await webpush.send({ userIds: [1] }, MESSAGE, context(null, { push }))).toMatchObject({ ok: false, retryable: false, error: expect.stringContaining("HTTP 403: invalid JWT") });

    const port = await closedPort();
    const gone: PushContext = { ...push, devices: async () => [{ id: 9, userId: 1, endpoint: `http://127.0.0.1:${port}/push/x`, keys: service!.device().subscription.keys }] };
    expect(await webpush.send({ userIds: [1] }, MESSAGE, context(null, { push: gone }))).toEqual({ ok: false, retryable: true, error: `127.0.0.1:${port}: connection refused` });
  });

  test("several devices, none took it: retryable when one may still take it, with the longest Retry-After", async () => {
    service = startPushService();
    const a = service.device("a");
    const b = service.device("b");
    service.answer((name) => (name === "a" ? new Response(null, { status: 410 }) : new Response(null, { status: 500, headers: { "retry-after": "30" } })));
    const { push } = pushContext([
      { userId: 1, device: a },
      { userId: 1, device: b },
    ]);
    const result = await webpush.send({ userIds: [1] }, MESSAGE, context(null, { push }));
    expect(result).toMatchObject({ ok: false, retryable: true, retryAfterMs: 30_000 });
    expect((result as { error: string }).error).toStartWith("No device took it (2 devices, 1 unsubscribed and removed): ");
  });

  test("nobody to push to, or no Web Push on the server: a final failure", async () => {
    const { push } = pushContext([]);
    expect(await webpush.send({ userIds: [1] }, MESSAGE, context(null, { push }))).toMatchObject({ ok: false, retryable: false, error: expect.stringContaining("No device to push to") });
    expect(await webpush.send({ role: "admin" }, MESSAGE, context(null))).toEqual({ ok: false, retryable: false, error: "Web Push is not set up on this server" });
  });
});

describe("webpush config", () => {
  const v = (config: unknown) => webpush.validate(config as Record<string, unknown>);
  test("people by id (deduplicated, sorted; numeric text taken) or a role", () => {
    expect(v({ userIds: [3, 1, 3, "2"] })).toEqual({ ok: true, config: { userIds: [1, 2, 3] } });
    expect(v({ role: " editor " })).toEqual({ ok: true, config: { role: "editor" } });
    // A form sends the other choice empty.
    expect(v({ role: "", userIds: [5] })).toEqual({ ok: true, config: { userIds: [5] } });
    expect(v({ role: "admin", userIds: [] })).toEqual({ ok: true, config: { role: "admin" } });
  });

  test("one of the two, within limits", () => {
    expect(v({})).toEqual({ ok: false, error: { code: "WEBPUSH_RECIPIENTS", message: "Who gets the alerts, userIds (1-50 people) or a role, is required" } });
    expect(v({ userIds: [1], role: "admin" })).toMatchObject({ ok: false, error: { code: "WEBPUSH_RECIPIENTS" } });
    expect(v({ role: "owner" })).toMatchObject({ ok: false, error: { code: "WEBPUSH_RECIPIENTS", message: 'role must be admin, editor, viewer (got "owner")' } });
    expect(v({ userIds: Array.from({ length: 51 }, (_, i) => i + 1) })).toMatchObject({ ok: false, error: { code: "WEBPUSH_RECIPIENTS" } });
    expect(v({ userIds: [0] })).toMatchObject({ ok: false, error: { code: "VALIDATION", message: "userIds must hold user ids (got number 0 in it)" } });
    expect(v({ userIds: [1.5] })).toMatchObject({ ok: false, error: { code: "VALIDATION" } });
    expect(v({ userIds: "1" })).toMatchObject({ ok: false, error: { code: "VALIDATION", message: 'userIds must be a list of user ids (got "1")' } });
    expect(v({ role: 5 })).toMatchObject({ ok: false, error: { code: "VALIDATION" } });
  });
});
