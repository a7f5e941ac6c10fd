// Brevo's transactional e-mail API (https://developers.brevo.com/reference/sendtransacemail): POST /v3/smtp/email with
// the api-key header, a plain-text and an HTML part. Brevo answers 201 with the messageId, else { code, message }.
import { COLOURS, html, mailApiConfig, plainText, senderParts } from "./email";
import { check } from "./fields";
import { describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import type { Provider } from "./provider";

interface BrevoAnswer {
  messageId?: unknown;
  code?: unknown;
  message?: unknown;
}

export const brevo: Provider<"brevo"> = {
  type: "brevo",
  secretFields: ["apiKey"],
  // Brevo limits this endpoint per plan, well above what alerts need; two a second, as Resend's.
  perMinute: 120,

  validate: (input) =>
    check(input, mailApiConfig),

  async send(config, message, ctx) {
    const payload = {
      sender: senderParts(config.from),
      to: config.to.map((email) => ({ email })),
      subject: message.title,
      htmlContent: html(message.title, message.lines, COLOURS[message.severity]),
      textContent: plainText(message.title, message.lines),
    };
    const base = (ctx.endpoints.brevo ?? "https://api.brevo.com").replace(/\/+$/, "");
    const sent = await postJson(ctx, `${base}/v3/smtp/email`, payload, { headers: { Accept: "application/json", "api-key": config.apiKey }, secrets: [config.apiKey] });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as BrevoAnswer | undefined;
    if (success(answer) && typeof reply?.messageId === "string") return OK;
    if (typeof reply?.message !== "string") return failure(answer, `Brevo: ${describeAnswer(answer)}`);
    const code = typeof reply.code === "string" ? ` (${reply.code})` : "";
    return failure(answer, `Brevo: ${snippet(reply.message)}${code}`);
  },
};
