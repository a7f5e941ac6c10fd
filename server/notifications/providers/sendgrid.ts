// SendGrid's Mail Send API (https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send): POST
// /v3/mail/send with a bearer API key, a plain-text and an HTML part. SendGrid answers 202 with no body when it has
// queued the mail, else { errors: [{ message, field }] }.
import { COLOURS, html, mailApiConfig, plainText, senderParts } from "./email";
import { check } from "./fields";
import { describeAnswer, failure, OK, postJson, snippet } from "./http";
import type { Provider } from "./provider";

interface SendGridAnswer {
  errors?: unknown;
}

export const sendgrid: Provider<"sendgrid"> = {
  type: "sendgrid",
  secretFields: ["apiKey"],
  // Mail Send has no per-minute limit of its own (the plan counts mails); two a second, as Resend's.
  perMinute: 120,

  validate: (input) =>
    check(input, mailApiConfig),

  async send(config, message, ctx) {
    const payload = {
      personalizations: [{ to: config.to.map((email) => ({ email })) }],
      from: senderParts(config.from),
      subject: message.title,
      // text/plain first: SendGrid requires that order.
      content: [
        { type: "text/plain", value: plainText(message.title, message.lines) },
        { type: "text/html", value: html(message.title, message.lines, COLOURS[message.severity]) },
      ],
    };
    const base = (ctx.endpoints.sendgrid ?? "https://api.sendgrid.com").replace(/\/+$/, "");
    const sent = await postJson(ctx, `${base}/v3/mail/send`, payload, { headers: { Authorization: `Bearer ${config.apiKey}` }, secrets: [config.apiKey] });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    if (answer.status === 202) return OK;
    const reply = answer.json as SendGridAnswer | undefined;
    const errors = Array.isArray(reply?.errors) ? reply.errors.map((e) => (e as { message?: unknown })?.message).filter((m): m is string => typeof m === "string") : [];
    if (errors.length) return failure(answer, `SendGrid: ${snippet(errors.join("; "))}`);
    return failure(answer, `SendGrid: ${describeAnswer(answer)}`);
  },
};
