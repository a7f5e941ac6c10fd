// Opsgenie Alert API v2 (https://docs.opsgenie.com/docs/alert-api): a problem creates an alert whose alias is the
// target's dedup key (a repeat, like a reminder, joins the open alert), and its recovery closes the alert by that
// alias, as PagerDuty's resolve does. A test creates and closes at once. The API queues requests: 202 and a requestId.
import type { NotificationEvent } from "../public";
import { check, fail, text } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import { headerSafe, integerIn } from "./ntfy";
import { alertSeverity, dedupKey, RESOLVES } from "./pagerduty";
import type { NotificationMessage, Provider, SendContext, SendResult } from "./provider";

const API_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HOSTS = { us: "https://api.opsgenie.com", eu: "https://api.eu.opsgenie.com" } as const;
/** The API's field limits. */
const MAX = { message: 130, alias: 512, description: 15_000, entity: 512 } as const;
const SOURCE = "Vigil";
/** Opsgenie's own default; Kuma's too. */
const DEFAULT_PRIORITY = 3;

interface OpsgenieAnswer {
  requestId?: unknown;
  message?: unknown;
  errors?: unknown;
}

/** P1-P5: the configured one for down, offline and reminders, one step lower for usage conditions, P5 for a test. */
function priority(event: NotificationEvent, configured: number | undefined): string {
  const base = configured ?? DEFAULT_PRIORITY;
  if (event.kind === "test") return "P5";
  return `P${alertSeverity(event.kind) === "warning" ? Math.min(5, base + 1) : base}`;
}

function createAlert(event: NotificationEvent, message: NotificationMessage, configured?: number): Record<string, unknown> {
  return {
    message: clip(message.title, MAX.message),
    alias: dedupKey(event).slice(0, MAX.alias),
    description: clip(message.lines.join("\n"), MAX.description),
    source: SOURCE,
    entity: clip(event.target.name || `${event.target.type} ${event.target.id}`, MAX.entity),
    priority: priority(event, configured),
  };
}

async function call(url: string, body: Record<string, unknown>, apiKey: string, ctx: SendContext): Promise<SendResult> {
  const sent = await postJson(ctx, url, body, { headers: { Authorization: `GenieKey ${apiKey}` }, secrets: [apiKey] });
  if (!sent.ok) return sent;
  const answer = sent.answer;
  const reply = answer.json as OpsgenieAnswer | undefined;
  if (success(answer) && typeof reply?.requestId === "string") return OK;
  if (typeof reply?.message !== "string") return failure(answer, `Opsgenie: ${describeAnswer(answer)}`);
  // A validation error names the fields: { "errors": { "message": "Message can not be empty." } }.
  const errors = reply.errors && typeof reply.errors === "object" ? Object.values(reply.errors).filter((e): e is string => typeof e === "string") : [];
  return failure(answer, `Opsgenie: ${snippet(errors.length ? `${reply.message}: ${errors.join("; ")}` : reply.message)}`);
}

export const opsgenie: Provider<"opsgenie"> = {
  type: "opsgenie",
  secretFields: ["apiKey"],
  // Opsgenie's limits depend on the plan; a request a second stays under the smallest.
  perMinute: 60,

  validate: (input) =>
    check(input, (config) => {
      const apiKey = headerSafe(text(config, "apiKey", true), "apiKey");
      if (!apiKey) fail("OPSGENIE_KEY_INVALID", "API key is required");
      if (!API_KEY.test(apiKey)) fail("OPSGENIE_KEY_INVALID", "The API key of an API integration looks like 1a2b3c4d-1a2b-1a2b-1a2b-1a2b3c4d5e6f");
      const region = text(config, "region") || "us";
      if (region !== "us" && region !== "eu") fail("VALIDATION", `region must be "us" or "eu" (got ${JSON.stringify(clip(region, 40))})`);
      const level = integerIn(config, "priority", 1, 5);
      return { apiKey, region, ...(level !== undefined ? { priority: level } : {}) };
    }),

  async send(config, message, ctx) {
    const base = `${(ctx.endpoints.opsgenie ?? HOSTS[config.region]).replace(/\/+$/, "")}/v2/alerts`;
    const close = (event: NotificationEvent) =>
      call(`${base}/${encodeURIComponent(dedupKey(event).slice(0, MAX.alias))}/close?identifierType=alias`, { source: SOURCE, note: clip(message.title, 25_000) }, config.apiKey, ctx);
    // In order, stopping at the first failure: a retry sends them all again, which the aliases make harmless.
    for (const event of message.events) {
      const result = RESOLVES.includes(event.kind) ? await close(event) : await call(base, createAlert(event, message, config.priority), config.apiKey, ctx);
      if (!result.ok) return result;
      // A test shows the whole path without leaving an alert for someone to close by hand.
      if (event.kind === "test") {
        const closed = await close(event);
        if (!closed.ok) return closed;
      }
    }
    return OK;
  },
};
