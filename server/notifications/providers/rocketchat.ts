// Rocket.Chat incoming webhook (https://docs.rocket.chat/docs/integrations): the title in bold and the lines in an
// attachment coloured by severity.
import { hookSecrets } from "./discord";
import { check, webhookUrl } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import type { Provider } from "./provider";

const COLOUR = { critical: "#e5484d", ok: "#30a46c", info: "#0090ff" } as const;
/** The server's default Message_MaxAllowedSize. */
const MAX_TEXT = 5000;

interface RocketChatAnswer {
  success?: boolean;
  error?: string;
}

export const rocketchat: Provider<"rocketchat"> = {
  type: "rocketchat",
  // The URL's last two segments are the integration's id and token.
  secretFields: ["url"],
  perMinute: 60,

  target: (config) => ({ url: config.url }),
  validate: (input) => check(input, (config) => ({ url: webhookUrl(config, "rocketchat") })),

  async send(config, message, ctx) {
    const body: { alias: string; text: string; attachments?: { color: string; text: string }[] } = {
      alias: "Vigil",
      text: `*${clip(message.title, MAX_TEXT - 2)}*`,
    };
    const lines = clip(message.lines.join("\n"), MAX_TEXT);
    if (lines) body.attachments = [{ color: COLOUR[message.severity], text: lines }];
    const sent = await postJson(ctx, config.url, body, { secrets: hookSecrets(config.url, 2) });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    // Rocket.Chat's verdict is `success`, also on a 200.
    const reply = answer.json as RocketChatAnswer | undefined;
    if (success(answer) && reply?.success === true) return OK;
    if (typeof reply?.error === "string") return failure(answer, `Rocket.Chat: ${snippet(reply.error)}`);
    return failure(answer, `Rocket.Chat: ${describeAnswer(answer)}`);
  },
};
