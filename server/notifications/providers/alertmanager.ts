// An Alertmanager-compatible webhook: the JSON Alertmanager's webhook_config sends (payload version 4,
// https://prometheus.io/docs/alerting/latest/configuration/#webhook_config), for receivers built for it (Keep,
// SIGNL4, Zenduty, ntfy's and Gotify's bridges, a team's own). One request per message, its events as alerts: a
// problem fires, its recovery resolves with the same labels and fingerprint, so the receiver pairs them. A test fires
// and resolves at once. Any 2xx is taken, as Alertmanager takes it.
import { createHash } from "node:crypto";
import type { NotificationEvent, NotificationEventKind } from "../public";
import { check, text, webhookUrl } from "./fields";
import { describeAnswer, failure, OK, postJson, success, urlKeyParts } from "./http";
import { maskUrlKeys } from "./mask";
import { headerSafe } from "./ntfy";
import { alertSeverity, dedupKey, RESOLVES } from "./pagerduty";
import type { NotificationMessage, Provider, SendContext, SendResult } from "./provider";

type Labels = Record<string, string>;
/** Go's zero time: how Alertmanager writes "not ended" in a firing alert. */
const NOT_ENDED = "0001-01-01T00:00:00Z";

const ALERT_NAMES: Partial<Record<NotificationEventKind, string>> = {
  cpu: "VigilCpuHigh",
  memory: "VigilMemoryHigh",
  disk: "VigilDiskHigh",
  container: "VigilContainerProblem",
  budget: "VigilErrorBudget",
  test: "VigilTest",
};

/** The same name for a problem and its recovery (down/recovery/reminder, offline/online): that is what pairs them. */
function alertName(event: NotificationEvent): string {
  return ALERT_NAMES[event.kind] ?? (event.target.type === "agent" ? "VigilAgentOffline" : "VigilMonitorDown");
}

/** The same for a problem, its reminders and its recovery: receivers pair alerts by their labels. */
function alertLabels(event: NotificationEvent): Labels {
  const { type, id, name } = event.target;
  const severity = event.kind in ALERT_NAMES ? alertSeverity(event.kind) : "critical";
  const labels: Labels = { alertname: alertName(event), severity, [type]: name || `${type} ${id}`, [`${type}_id`]: String(id) };
  if (event.kind === "disk" && event.facts.mountPoint) labels.mountpoint = event.facts.mountPoint;
  if (event.kind === "container" && event.facts.container) labels.container = event.facts.container;
  if (event.kind === "container" && event.facts.containerProblem) labels.problem = event.facts.containerProblem;
  return labels;
}

/** Stable per target and condition (the dedup key's hash), as long as Alertmanager's: 16 hex digits. */
const fingerprint = (event: NotificationEvent) => createHash("sha256").update(dedupKey(event)).digest("hex").slice(0, 16);

function alert(event: NotificationEvent, message: NotificationMessage, resolved: boolean) {
  const at = new Date(event.time).toISOString();
  const downtime = event.facts.downtimeSeconds;
  const startsAt = resolved && typeof downtime === "number" ? new Date(event.time - downtime * 1000).toISOString() : at;
  return {
    status: resolved ? "resolved" : "firing",
    labels: alertLabels(event),
    annotations: { summary: message.title, description: message.lines.join("\n") },
    startsAt,
    endsAt: resolved ? at : NOT_ENDED,
    generatorURL: "",
    fingerprint: fingerprint(event),
  };
}

/** What every member has alike (Alertmanager's commonLabels / commonAnnotations). */
function common(maps: Labels[]): Labels {
  const [first, ...rest] = maps;
  return Object.fromEntries(Object.entries(first ?? {}).filter(([k, v]) => rest.every((m) => m[k] === v)));
}

function alertmanagerPayload(alerts: ReturnType<typeof alert>[]): Record<string, unknown> {
  const commonLabels = common(alerts.map((a) => a.labels));
  const groupLabels: Labels = commonLabels.alertname ? { alertname: commonLabels.alertname } : {};
  const groupKey = `{}:{${Object.entries(groupLabels).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(",")}}`;
  return {
    version: "4",
    groupKey,
    truncatedAlerts: 0,
    status: alerts.some((a) => a.status === "firing") ? "firing" : "resolved",
    receiver: "vigil",
    groupLabels,
    commonLabels,
    commonAnnotations: common(alerts.map((a) => a.annotations)),
    externalURL: "",
    alerts,
  };
}

async function post(config: { url: string; token?: string }, body: Record<string, unknown>, ctx: SendContext): Promise<SendResult> {
  const headers: Record<string, string> = config.token ? { Authorization: `Bearer ${config.token}` } : {};
  const sent = await postJson(ctx, config.url, body, { headers, secrets: [...urlKeyParts(config.url), config.token] });
  if (!sent.ok) return sent;
  if (success(sent.answer)) return OK;
  return failure(sent.answer, `Alertmanager webhook: ${describeAnswer(sent.answer)}`);
}

export const alertmanager: Provider<"alertmanager"> = {
  type: "alertmanager",
  // As the generic webhook: the URL names the user's own receiver, a key may sit in its credentials or query.
  secretFields: ["url", "token"],
  masks: { url: maskUrlKeys },
  perMinute: 60,

  target: (config) => ({ url: config.url }),
  validate: (input) =>
    check(input, (config) => {
      const url = webhookUrl(config, "alertmanager");
      const token = headerSafe(text(config, "token", true), "token");
      return { url, ...(token ? { token } : {}) };
    }),

  async send(config, message, ctx) {
    if (message.events.length === 0) return OK;
    const alerts = message.events.map((event) => alert(event, message, RESOLVES.includes(event.kind)));
    const fired = await post(config, alertmanagerPayload(alerts), ctx);
    if (!fired.ok) return fired;
    // A test shows the whole path (an alert fires) without leaving it open at the receiver.
    const tests = message.events.filter((e) => e.kind === "test");
    if (tests.length === 0) return OK;
    return post(config, alertmanagerPayload(tests.map((event) => alert(event, message, true))), ctx);
  },
};
