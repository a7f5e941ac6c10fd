// Google Chat space webhook (https://developers.google.com/workspace/chat/quickstart/webhooks): a card with the title
// as its header and the lines as one paragraph, plus the title as plain text for notifications.
import { check, webhookUrl } from "./fields";
import { clip, clipEscaped, describeAnswer, failure, OK, postJson, snippet, success, urlSecrets } from "./http";
import type { Provider } from "./provider";
import { escapeHtml } from "./telegram";

/** A message is at most 32 000 bytes: these stay under it even at 4 bytes a character. */
const MAX_TITLE = 400;
const MAX_PARAGRAPH = 6000;

interface ChatAnswer {
  /** The created message: "spaces/…/messages/…". */
  name?: string;
  error?: { code?: number; message?: string; status?: string };
}

export const googlechat: Provider<"googlechat"> = {
  type: "googlechat",
  // The URL's key and token parameters are the credential.
  secretFields: ["url"],
  // One message per second per space.
  perMinute: 60,

  target: (config) => ({ url: config.url }),
  validate: (input) => check(input, (config) => ({ url: webhookUrl(config, "googlechat") })),

  async send(config, message, ctx) {
    const title = clip(message.title, MAX_TITLE);
    // textParagraph takes a little HTML (<b>, <br>, <a>): the text is escaped, lines joined with <br>, and a cut
    // leaves neither half an entity nor half a <br>.
    const paragraph = clipEscaped(message.lines.map(escapeHtml).join("<br>"), MAX_PARAGRAPH).replace(/<b?r?…$/, "…");
    const card = { header: { title }, sections: [{ widgets: [{ textParagraph: { text: paragraph } }] }] };
    // No lines: the text alone, rather than a card with an empty section.
    const payload = paragraph ? { text: title, cardsV2: [{ cardId: "vigil", card }] } : { text: title };
    const sent = await postJson(ctx, config.url, payload, { secrets: urlSecrets(config.url) });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as ChatAnswer | undefined;
    if (success(answer) && typeof reply?.name === "string") return OK;
    const error = reply?.error;
    if (typeof error?.message === "string") {
      const status = typeof error.status === "string" ? ` (${snippet(error.status, 60)})` : "";
      return failure(answer, `Google Chat: ${snippet(error.message)}${status}`);
    }
    return failure(answer, `Google Chat: ${describeAnswer(answer)}`);
  },
};
