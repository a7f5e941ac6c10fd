// Grafana OnCall (Grafana IRM) through a "Formatted webhook" integration
// (https://grafana.com/docs/oncall/latest/configure/integrations/references/webhook/): one alert per event whose
// alert_uid is the target's dedup key, so the integration's default grouping puts a problem, its reminders and its
// recovery in one alert group, and state "ok" resolves it. A test fires and resolves at once. OnCall answers "Ok.".
import type { NotificationEvent } from "../public";
import { check, webhookUrl } from "./fields";
import { describeAnswer, failure, OK, postJson, urlSecrets } from "./http";
import { dedupKey, RESOLVES } from "./pagerduty";
import type { NotificationMessage, Provider, SendContext, SendResult } from "./provider";

function alert(event: NotificationEvent, message: NotificationMessage, state: "alerting" | "ok"): Record<string, unknown> {
  return { alert_uid: dedupKey(event), title: message.title, message: message.lines.join("\n"), state };
}

/** The URL's parts that carry the integration's token: its last path segment too (OnCall's errors quote it). */
const tokenParts = (url: string) => [...urlSecrets(url), new URL(url).pathname.split("/").filter(Boolean).at(-1)];

async function post(url: string, body: Record<string, unknown>, ctx: SendContext): Promise<SendResult> {
  const sent = await postJson(ctx, url, body, { headers: { Accept: "application/json" }, secrets: tokenParts(url) });
  if (!sent.ok) return sent;
  const answer = sent.answer;
  // "Ok." as JSON (its REST framework's rendering), or as plain text.
  if (answer.status === 200 && (answer.json === "Ok." || answer.text.trim() === "Ok.")) return OK;
  return failure(answer, `Grafana OnCall: ${describeAnswer(answer)}`);
}

export const grafanaoncall: Provider<"grafanaoncall"> = {
  type: "grafanaoncall",
  // The integration's token is in the URL's path.
  secretFields: ["url"],
  // Grafana Cloud takes 300 alerts per 5 minutes per integration.
  perMinute: 60,

  target: (config) => ({ url: config.url }),
  validate: (input) => check(input, (config) => ({ url: webhookUrl(config, "grafanaoncall") })),

  async send(config, message, ctx) {
    // In order, stopping at the first failure: a retry sends them all again, which the alert_uid makes harmless.
    for (const event of message.events) {
      const result = await post(config.url, alert(event, message, RESOLVES.includes(event.kind) ? "ok" : "alerting"), ctx);
      if (!result.ok) return result;
      if (event.kind === "test") {
        const resolved = await post(config.url, alert(event, message, "ok"), ctx);
        if (!resolved.ok) return resolved;
      }
    }
    return OK;
  },
};
