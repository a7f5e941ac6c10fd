// Slack incoming webhook (https://api.slack.com/messaging/webhooks): Block Kit with a plain-text fallback.
import { check, webhookUrl } from "./fields";
import { clip, clipEscaped, failure, OK, postJson, snippet, success, urlSecrets } from "./http";
import type { Provider } from "./provider";

/** mrkdwn needs only these three escaped (https://api.slack.com/reference/surfaces/formatting#escaping). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export const slack: Provider<"slack"> = {
  type: "slack",
  // The webhook URL is the credential.
  secretFields: ["url"],
  // Incoming webhooks allow about one message per second.
  perMinute: 60,

  target: (config) => ({ url: config.url }),
  validate: (input) => check(input, (config) => ({ url: webhookUrl(config, "slack") })),

  async send(config, message, ctx) {
    // Block limits: header text 150 characters, section text 3000 (counted escaped).
    const lines = clipEscaped(escapeMrkdwn(message.lines.join("\n")), 3000);
    const blocks: unknown[] = [{ type: "header", text: { type: "plain_text", text: clip(message.title, 150), emoji: true } }];
    if (lines) blocks.push({ type: "section", text: { type: "mrkdwn", text: lines } });
    const title = escapeMrkdwn(message.title);
    const fallback = lines ? `${title}\n${lines}` : title;
    const sent = await postJson(ctx, config.url, { text: fallback, blocks }, { secrets: urlSecrets(config.url) });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    // Slack answers the plain text "ok"; errors are short codes such as "invalid_payload" or "no_service".
    if (success(answer) && answer.text.trim() === "ok") return OK;
    return failure(answer, `Slack: ${snippet(answer.text) || `HTTP ${answer.status}`}`);
  },
};
