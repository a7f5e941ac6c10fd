// Push to devices (Web Push: RFC 8030, 8291, 8292): the alert as a small JSON document, encrypted to each subscribed
// device of the channel's people and POSTed to that device's push service with a VAPID signature. The web-push
// library builds each request (aes128gcm encryption, the VAPID JWT); the request itself goes through ctx.fetch like
// every provider's (timeout, the address policy, no redirects). The devices and keys come from server/push/ via
// ctx.push; this module never reads the database.
import { createHash } from "node:crypto";
import webPush from "web-push";
import type { NotificationEvent } from "../public";
import { check, describe, fail, text } from "./fields";
import { clip, clipBytes, networkError, parseRetryAfter, readPrefix, redact, snippet } from "./http";
import type { NotificationMessage, Provider, PushDevice, SendContext, SendResult } from "./provider";
import { TargetRefused } from "../../net/targets";

export const MAX_USERS = 50;
const ROLES = ["admin", "editor", "viewer"] as const;
/**
 * Push services take at most 4096 bytes of body (RFC 8030 §7.2's floor, FCM's and Apple's limit); aes128gcm adds an
 * 86-byte header, the padding delimiter and a 16-byte tag, so the JSON must fit in the rest (one record).
 */
export const MAX_PAYLOAD_BYTES = 4096 - 86 - 1 - 16;
/** How long a push service keeps a message for a device that is offline (then it is dropped). */
export const TTL_SECONDS = 24 * 3600;
const MAX_TITLE = 200;
/** A push service's answer is short; only its start goes into an error. */
const MAX_ANSWER = 2048;
/** The notification's action that acknowledges the problem (the service worker shows it when ackUrl is present). */
const ACK_LABEL = { "zh-CN": "确认", "en-US": "Acknowledge" } as const;

/** What the service worker (ui/public/sw.js) receives, decrypted. */
export interface PushPayload {
  title: string;
  body: string;
  severity: NotificationMessage["severity"];
  /** The page to open: the monitor's or agent's, the dashboard for a message about several. */
  url: string;
  /** Per target and condition, so a recovery replaces the down notification on the device; absent for a group. */
  tag?: string;
  /** The event's signed acknowledgement link (facts.ackUrl), and the action's label in the message's language. */
  ackUrl?: string;
  ackLabel?: string;
  /** Unix ms of the (last) event. */
  timestamp: number;
}

const conditionOf: Record<NotificationEvent["kind"], string> = {
  down: "status",
  recovery: "status",
  reminder: "status",
  offline: "status",
  online: "status",
  cpu: "cpu",
  memory: "memory",
  disk: "disk",
  container: "container",
  budget: "budget",
  test: "test",
};

/** `monitor-12-status`: down, reminders and the recovery of one monitor share it; a container's alerts are per container. */
export function tagOf(e: NotificationEvent): string {
  const base = `${e.target.type}-${e.target.id}-${conditionOf[e.kind]}`;
  const detail = e.kind === "container" ? e.facts.container : e.kind === "disk" ? e.facts.mountPoint : undefined;
  return detail ? `${base}-${createHash("sha256").update(detail).digest("hex").slice(0, 8)}` : base;
}

function pageOf(target: NotificationEvent["target"]): string {
  if (target.type === "monitor") return `/monitors/${target.id}`;
  if (target.type === "agent") return `/agents/${target.id}`;
  return "/profile";
}

/** The ack link another part of Vigil puts on an event's facts (paging), when it does. */
function ackUrlOf(e: NotificationEvent): string | undefined {
  const value = (e.facts as Record<string, unknown>).ackUrl;
  return typeof value === "string" && value ? value : undefined;
}

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** The payload as JSON, at most MAX_PAYLOAD_BYTES: lines are dropped from the end ("…"), then the last one is cut. */
export function payloadOf(message: NotificationMessage): string {
  const events = message.events;
  const single = events.length === 1 ? events[0]! : undefined;
  const sameTarget = events.length > 0 && events.every((e) => e.target.type === events[0]!.target.type && e.target.id === events[0]!.target.id);
  const ackUrl = single && ackUrlOf(single);
  const base: Omit<PushPayload, "body"> = {
    title: clip(message.title, MAX_TITLE),
    severity: message.severity,
    url: sameTarget ? pageOf(events[0]!.target) : "/dashboard",
    ...(single ? { tag: tagOf(single) } : {}),
    ...(ackUrl ? { ackUrl, ackLabel: ACK_LABEL[message.lang] } : {}),
    timestamp: events.at(-1)?.time ?? 0,
  };
  const encode = (body: string) => JSON.stringify({ ...base, body });
  let lines = [...message.lines];
  let json = encode(lines.join("\n"));
  while (bytes(json) > MAX_PAYLOAD_BYTES && lines.length > 1) {
    lines = lines.slice(0, -1);
    json = encode([...lines, "…"].join("\n"));
  }
  let body = lines.join("\n");
  while (bytes(json) > MAX_PAYLOAD_BYTES) {
    body = clipBytes(body, Math.floor(bytes(body) * 0.9));
    json = encode(body);
  }
  return json;
}

/** RFC 8030 §5.4: a message with a topic replaces an undelivered one with the same topic (≤ 32 base64url characters). */
const topicOf = (tag: string | undefined) => (tag && /^[A-Za-z0-9_-]{1,32}$/.test(tag) ? tag : undefined);

type DeviceOutcome = { ok: true } | { ok: false; gone: boolean; error: string; retryable: boolean; retryAfterMs?: number };

async function pushTo(device: PushDevice, payload: string, options: webPush.RequestOptions, ctx: SendContext): Promise<DeviceOutcome> {
  const host = new URL(device.endpoint).host;
  let details: webPush.RequestDetails;
  try {
    details = webPush.generateRequestDetails({ endpoint: device.endpoint, keys: device.keys }, payload, options);
  } catch (e) {
    // Keys are checked when a device subscribes; a row that still fails here cannot be sent to, now or later.
    return { ok: false, gone: false, error: `${host}: ${(e as Error).message}`, retryable: false };
  }
  const headers = Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)]));
  let response: Response;
  try {
    response = await ctx.fetch(details.endpoint, { method: "POST", headers, body: new Uint8Array(details.body ?? []), signal: AbortSignal.timeout(ctx.timeoutMs), redirect: "manual" });
  } catch (e) {
    if (e instanceof TargetRefused) return { ok: false, gone: false, error: e.message, retryable: false };
    return { ok: false, gone: false, error: `${host}: ${networkError(e, ctx.timeoutMs)}`, retryable: true };
  }
  const answer = await readPrefix(response, MAX_ANSWER).catch(() => "");
  if (response.status >= 200 && response.status < 300) return { ok: true };
  // The endpoint is the device's address and the JWT a credential: neither goes into an error.
  const url = new URL(device.endpoint);
  const said = snippet(redact(answer, [device.endpoint, url.pathname, headers.Authorization ?? ""]));
  const error = `${host}: HTTP ${response.status}${said ? `: ${said}` : ""}`;
  // 404/410: the subscription expired or the user revoked it (RFC 8030 §7.3): it will never work again.
  if (response.status === 404 || response.status === 410) return { ok: false, gone: true, error, retryable: false };
  if (response.status === 429 || response.status >= 500) {
    const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), ctx.now());
    return { ok: false, gone: false, error, retryable: true, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }
  return { ok: false, gone: false, error, retryable: false };
}

/**
 * Sends one message to devices, each on its own, and records each device's outcome (a gone one is deleted). Delivered
 * when at least one device took it: the outbox retries a message as a whole, and a retry would repeat it on the
 * devices that have it. Otherwise retryable when any failure may pass (a network error, 429, 5xx; the longest
 * Retry-After), else final.
 */
export async function sendToDevices(devices: PushDevice[], message: NotificationMessage, ctx: SendContext): Promise<SendResult> {
  const push = ctx.push;
  if (!push) return { ok: false, error: "Web Push is not set up on this server", retryable: false };
  if (!devices.length) return { ok: false, error: "No device to push to: none of these people has turned on push on a device (on their profile page)", retryable: false };
  const payload = payloadOf(message);
  const tag = message.events.length === 1 ? tagOf(message.events[0]!) : undefined;
  const topic = topicOf(tag);
  const options: webPush.RequestOptions = {
    vapidDetails: await push.vapid(),
    TTL: TTL_SECONDS,
    urgency: message.severity === "critical" ? "high" : "normal",
    contentEncoding: "aes128gcm",
    ...(topic ? { topic } : {}),
  };
  const outcomes = await Promise.all(
    devices.map(async (device) => {
      const outcome = await pushTo(device, payload, options, ctx);
      await push.record(device.id, outcome.ok ? { ok: true } : { ok: false, error: outcome.error, gone: outcome.gone });
      return outcome;
    }),
  );
  const failures = outcomes.filter((o): o is Extract<DeviceOutcome, { ok: false }> => !o.ok);
  if (failures.length < outcomes.length) return { ok: true };
  const gone = failures.filter((f) => f.gone).length;
  const retryable = failures.filter((f) => f.retryable);
  const first = (retryable[0] ?? failures.find((f) => !f.gone) ?? failures[0])!;
  const error =
    devices.length === 1
      ? `${first.error}${gone ? " (unsubscribed: the device was removed)" : ""}`
      : `No device took it (${devices.length} devices${gone ? `, ${gone} unsubscribed and removed` : ""}): ${first.error}`;
  if (!retryable.length) return { ok: false, error, retryable: false };
  const waits = retryable.map((f) => f.retryAfterMs).filter((ms): ms is number => ms !== undefined);
  return { ok: false, error, retryable: true, ...(waits.length ? { retryAfterMs: Math.max(...waits) } : {}) };
}

function userIds(raw: unknown): number[] {
  if (!Array.isArray(raw)) return fail("VALIDATION", `userIds must be a list of user ids (got ${describe(raw)})`);
  const ids = new Set<number>();
  for (const value of raw) {
    const id = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1) fail("VALIDATION", `userIds must hold user ids (got ${describe(value)} in it)`);
    ids.add(id);
  }
  if (ids.size > MAX_USERS) fail("WEBPUSH_RECIPIENTS", `userIds may name at most ${MAX_USERS} people (got ${ids.size})`);
  return [...ids].sort((a, b) => a - b);
}

export const webpush: Provider<"webpush"> = {
  type: "webpush",
  secretFields: [],
  // Push services document no per-sender rate; one message a second per channel stays well clear of their floods.
  perMinute: 60,

  validate: (input) =>
    check(input, (config) => {
      const role = text(config, "role");
      const raw = config.userIds;
      const named = raw !== undefined && raw !== null && !(Array.isArray(raw) && raw.length === 0);
      if (role && named) fail("WEBPUSH_RECIPIENTS", "Choose either people (userIds) or a role, not both");
      if (role) {
        if (!(ROLES as readonly string[]).includes(role)) fail("WEBPUSH_RECIPIENTS", `role must be ${ROLES.join(", ")} (got ${describe(role)})`);
        return { role: role as (typeof ROLES)[number] };
      }
      if (!named) fail("WEBPUSH_RECIPIENTS", `Who gets the alerts, userIds (1-${MAX_USERS} people) or a role, is required`);
      return { userIds: userIds(raw) };
    }),

  async send(config, message, ctx) {
    if (!ctx.push) return { ok: false, error: "Web Push is not set up on this server", retryable: false };
    return sendToDevices(await ctx.push.devices(config), message, ctx);
  },
};
