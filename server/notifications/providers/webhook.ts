// Generic webhook: the message and its events as JSON, signed with HMAC-SHA256 when a secret is set.
import { createHmac } from "node:crypto";
import { check, urlWithSecret } from "./fields";
import { describeAnswer, failure, OK, postJson, success, urlKeyParts } from "./http";
import { maskUrlKeys } from "./mask";
import type { NotificationMessage, Provider } from "./provider";

/** `sha256=<hex HMAC-SHA256(secret, body)>`, the value of X-Vigil-Signature. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** The built-in body: the message and its events. */
export const webhookBody = (message: NotificationMessage) =>
  JSON.stringify({ title: message.title, severity: message.severity, lang: message.lang, lines: message.lines, events: message.events });

export const webhook: Provider<"webhook"> = {
  type: "webhook",
  // The URL may carry a key in its credentials or query; its scheme, host and path name the user's own endpoint and
  // stay visible, so the channel can be recognised.
  secretFields: ["url", "secret"],
  masks: { url: maskUrlKeys },
  perMinute: 60,

  target: (config) => ({ url: config.url }),
  validate: (input) => check(input, (config) => urlWithSecret(config, "webhook")),

  async send(config, message, ctx) {
    // Serialised once: the signature covers exactly these bytes (a body template's output is sent as rendered).
    const body = message.body ?? webhookBody(message);
    const headers: Record<string, string> = { "X-Vigil-Timestamp": String(ctx.now()) };
    if (config.secret) headers["X-Vigil-Signature"] = webhookSignature(config.secret, body);
    const sent = await postJson(ctx, config.url, body, { headers, secrets: [...urlKeyParts(config.url), config.secret] });
    if (!sent.ok) return sent;
    if (success(sent.answer)) return OK;
    return failure(sent.answer, `Webhook: ${describeAnswer(sent.answer)}`);
  },
};
