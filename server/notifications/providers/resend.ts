// Resend's email API (https://resend.com/docs/api-reference/emails/send-email): plain text plus a small HTML body.
import { COLOURS, html, mailApiConfig, plainText } from "./email";
import { check } from "./fields";
import { describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import type { Provider } from "./provider";

interface ResendAnswer {
  id?: string;
  name?: string;
  message?: string;
  statusCode?: number;
}

export const resend: Provider<"resend"> = {
  type: "resend",
  secretFields: ["apiKey"],
  // Resend's default limit is 2 requests per second per team.
  perMinute: 120,

  validate: (input) =>
    check(input, mailApiConfig),

  async send(config, message, ctx) {
    const payload = {
      from: config.from,
      to: config.to,
      subject: message.title,
      text: plainText(message.title, message.lines),
      html: html(message.title, message.lines, COLOURS[message.severity]),
    };
    const url = `${ctx.endpoints.resend.replace(/\/+$/, "")}/emails`;
    const sent = await postJson(ctx, url, payload, { headers: { Authorization: `Bearer ${config.apiKey}` }, secrets: [config.apiKey] });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as ResendAnswer | undefined;
    if (success(answer) && typeof reply?.id === "string") return OK;
    if (typeof reply?.message === "string") return failure(answer, `Resend: ${snippet(reply.message)}`);
    return failure(answer, `Resend: ${describeAnswer(answer)}`);
  },
};
