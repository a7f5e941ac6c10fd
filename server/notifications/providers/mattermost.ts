// Mattermost incoming webhook (https://developers.mattermost.com/integrate/webhooks/incoming/): markdown text with
// the title as a heading.
import { hookSecrets } from "./discord";
import { check, webhookUrl } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import type { Provider } from "./provider";

/** Posts hold 16 383 characters; a webhook's longer text would be split over several posts. */
const MAX_TEXT = 16_000;

interface MattermostAnswer {
  /** The error id, e.g. "web.incoming_webhook.invalid.app_error". */
  id?: string;
  message?: string;
}

export const mattermost: Provider<"mattermost"> = {
  type: "mattermost",
  // The URL's last segment is the hook's key.
  secretFields: ["url"],
  perMinute: 60,

  target: (config) => ({ url: config.url }),
  validate: (input) => check(input, (config) => ({ url: webhookUrl(config, "mattermost") })),

  async send(config, message, ctx) {
    const text = clip([`#### ${message.title}`, ...message.lines].join("\n"), MAX_TEXT);
    // `username` applies only where the server lets integrations override it; elsewhere it is ignored, not refused.
    const sent = await postJson(ctx, config.url, { username: "Vigil", text }, { secrets: hookSecrets(config.url, 1) });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    // Mattermost answers the plain text "ok"; errors are its app-error JSON or, from a proxy, any text.
    if (success(answer) && answer.text.trim() === "ok") return OK;
    const reply = answer.json as MattermostAnswer | undefined;
    if (typeof reply?.message === "string") {
      const id = typeof reply.id === "string" && reply.id ? ` (${snippet(reply.id, 100)})` : "";
      return failure(answer, `Mattermost: ${snippet(reply.message)}${id}`);
    }
    return failure(answer, `Mattermost: ${describeAnswer(answer)}`);
  },
};
