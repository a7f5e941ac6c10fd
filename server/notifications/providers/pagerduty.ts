// PagerDuty Events API v2 (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/): one event per
// Vigil event; a problem triggers an alert and its recovery resolves it through the same dedup key. A test message
// triggers and resolves at once. Usage alerts (CPU, memory, disk) stay open until resolved in PagerDuty: Vigil has
// no "back under the threshold" event to resolve them with.
import type { NotificationEvent, NotificationEventKind } from "../public";
import { check, fail, text } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import type { NotificationMessage, Provider, SendContext, SendResult } from "./provider";

const ROUTING_KEY = /^[A-Za-z0-9]{32}$/;
const MAX_SUMMARY = 1024;
const MAX_DEDUP_KEY = 255;
export const RESOLVES: readonly NotificationEventKind[] = ["recovery", "online"];
/** Conditions of their own: an agent can be over its CPU threshold and offline as separate alerts. */
export const USAGE: readonly NotificationEventKind[] = ["cpu", "memory", "disk", "container", "budget"];

interface PagerDutyAnswer {
  status?: string;
  message?: string;
  errors?: unknown;
}

/** The same for a problem and its recovery, so the resolve closes the alert the trigger opened. */
export function dedupKey(event: NotificationEvent): string {
  let key = `vigil-${event.target.type}-${event.target.id}`;
  if (USAGE.includes(event.kind)) key += `-${event.kind}`;
  if (event.kind === "disk" && event.facts.mountPoint) key += `-${event.facts.mountPoint}`;
  if (event.kind === "container") key += `-${event.facts.container}-${event.facts.containerProblem}`;
  return key.slice(0, MAX_DEDUP_KEY);
}

/** Down and offline are critical, the usage conditions warnings, the rest (reminders, tests) information. */
export function alertSeverity(kind: NotificationEventKind): "critical" | "warning" | "info" {
  if (kind === "down" || kind === "offline") return "critical";
  return USAGE.includes(kind) ? "warning" : "info";
}

/** The Events API body for one event: a resolve carries only the key. */
export function pagerDutyEvent(routingKey: string, event: NotificationEvent, message: NotificationMessage): Record<string, unknown> {
  const base = { routing_key: routingKey, dedup_key: dedupKey(event) };
  if (RESOLVES.includes(event.kind)) return { ...base, event_action: "resolve" };
  return {
    ...base,
    event_action: "trigger",
    payload: {
      summary: clip(message.title, MAX_SUMMARY),
      source: event.target.name || `${event.target.type} ${event.target.id}`,
      severity: alertSeverity(event.kind),
      timestamp: new Date(event.time).toISOString(),
      custom_details: { lines: message.lines },
    },
  };
}

async function enqueue(url: string, body: Record<string, unknown>, routingKey: string, ctx: SendContext): Promise<SendResult> {
  const sent = await postJson(ctx, url, body, { secrets: [routingKey] });
  if (!sent.ok) return sent;
  const answer = sent.answer;
  const reply = answer.json as PagerDutyAnswer | undefined;
  if (success(answer) && reply?.status === "success") return OK;
  if (typeof reply?.message !== "string") return failure(answer, `PagerDuty: ${describeAnswer(answer)}`);
  const errors = Array.isArray(reply.errors) ? reply.errors.filter((e): e is string => typeof e === "string") : [];
  return failure(answer, `PagerDuty: ${snippet(errors.length ? `${reply.message}: ${errors.join("; ")}` : reply.message)}`);
}

export const pagerduty: Provider<"pagerduty"> = {
  type: "pagerduty",
  secretFields: ["routingKey"],
  // The Events API takes about 120 events a minute per integration key.
  perMinute: 120,

  validate: (input) =>
    check(input, (config) => {
      const routingKey = text(config, "routingKey", true);
      if (!routingKey) fail("PAGERDUTY_KEY_INVALID", "Integration key is required");
      if (!ROUTING_KEY.test(routingKey)) fail("PAGERDUTY_KEY_INVALID", "Integration key must be 32 letters and digits");
      return { routingKey };
    }),

  async send(config, message, ctx) {
    const url = `${(ctx.endpoints.pagerduty ?? "https://events.pagerduty.com").replace(/\/+$/, "")}/v2/enqueue`;
    // In order, stopping at the first failure: a retry sends them all again, which the dedup keys make harmless
    // (a repeated trigger joins the open alert, a repeated resolve does nothing).
    for (const event of message.events) {
      const result = await enqueue(url, pagerDutyEvent(config.routingKey, event, message), config.routingKey, ctx);
      if (!result.ok) return result;
      // A test shows the whole path (an alert opens) without leaving an incident for someone to close by hand.
      if (event.kind === "test") {
        const resolved = await enqueue(url, { routing_key: config.routingKey, dedup_key: dedupKey(event), event_action: "resolve" }, config.routingKey, ctx);
        if (!resolved.ok) return resolved;
      }
    }
    return OK;
  },
};
