// Telegram Bot API sendMessage (https://core.telegram.org/bots/api#sendmessage), HTML parse mode.
import { check, fail, requiredText } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import type { Provider } from "./provider";

const TOKEN = /^\d+:[A-Za-z0-9_-]{35}$/;
/** A numeric chat id (groups and channels are negative) or a public @username. */
const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z0-9_]{1,64})$/;
/** sendMessage takes 4096 characters after entity parsing; stay under it with the markup counted. */
const MAX_TEXT = 4000;

interface TelegramAnswer {
  ok?: boolean;
  description?: string;
  parameters?: { retry_after?: number };
}

/** HTML parse mode needs only these three escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export const telegram: Provider<"telegram"> = {
  type: "telegram",
  secretFields: ["botToken"],
  // Telegram allows 20 messages per minute into one group (1/s in private chats).
  perMinute: 20,

  validate: (input) =>
    check(input, (config) => {
      const botToken = requiredText(config, "botToken", { code: "BOT_TOKEN_REQUIRED", message: "Bot Token is required" }, true);
      if (!TOKEN.test(botToken)) fail("BOT_TOKEN_INVALID", "Invalid Bot Token format");
      const chatId = requiredText(config, "chatId", { code: "CHAT_ID_REQUIRED", message: "Chat ID is required" });
      if (!CHAT_ID.test(chatId)) fail("VALIDATION", `chatId must be a numeric ID or @channelname (got ${JSON.stringify(clip(chatId, 40))})`);
      return { botToken, chatId };
    }),

  async send(config, message, ctx) {
    // Telegram counts the text after entity parsing, so cut the plain text, then escape.
    const body = clip(message.lines.join("\n"), MAX_TEXT - message.title.length);
    const text = `<b>${escapeHtml(message.title)}</b>${body ? `\n${escapeHtml(body)}` : ""}`;
    const url = `${ctx.endpoints.telegram.replace(/\/+$/, "")}/bot${config.botToken}/sendMessage`;
    const sent = await postJson(ctx, url, { chat_id: config.chatId, text, parse_mode: "HTML", disable_web_page_preview: true }, { secrets: [config.botToken] });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as TelegramAnswer | undefined;
    if (success(answer) && reply?.ok === true) return OK;
    const retryAfter = reply?.parameters?.retry_after;
    const error = typeof reply?.description === "string" ? snippet(reply.description) : describeAnswer(answer);
    return failure(answer, `Telegram: ${error}`, {
      retryAfterMs: typeof retryAfter === "number" && retryAfter >= 0 ? retryAfter * 1000 : undefined,
    });
  },
};
