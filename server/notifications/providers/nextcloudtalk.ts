// Nextcloud Talk through a bot (https://nextcloud-talk.readthedocs.io/en/latest/bots/#sending-a-chat-message): POST
// /ocs/v2.php/apps/spreed/api/v1/bot/{conversation token}/message, signed with the secret the bot was installed with:
// X-Nextcloud-Talk-Bot-Random (a fresh random string) and X-Nextcloud-Talk-Bot-Signature (hex HMAC-SHA256 of the
// random string followed by the message). Talk answers 201 when the message is posted.
import { createHmac, randomBytes } from "node:crypto";
import { check, fail, requiredText, text } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet } from "./http";
import { serverUrl } from "./ntfy";
import type { Provider } from "./provider";

/** The last part of a conversation's link (…/call/{token}). */
const TOKEN = /^[A-Za-z0-9]{4,64}$/;
/** Talk's limit for one chat message. */
const MAX_MESSAGE = 32_000;

interface OcsAnswer {
  ocs?: { meta?: { message?: unknown } };
}

/** Hex HMAC-SHA256 of `random + message`, keyed with the bot's secret: the value of X-Nextcloud-Talk-Bot-Signature. */
export function talkSignature(secret: string, random: string, message: string): string {
  return createHmac("sha256", secret).update(random + message).digest("hex");
}

/** What Talk's bare statuses mean for a bot. */
const STATUS_HINTS: Record<number, string> = {
  401: "the bot secret is wrong, or the bot is not enabled in this conversation",
  404: "no conversation with this token",
  413: "the message is too long",
};

export const nextcloudtalk: Provider<"nextcloudtalk"> = {
  type: "nextcloudtalk",
  secretFields: ["botSecret"],
  // Talk sets no limit on a bot's messages (429 only after repeated bad signatures); one a second reads well in a chat.
  perMinute: 60,

  target: (config) => ({ url: config.server }),
  validate: (input) =>
    check(input, (config) => {
      const server = serverUrl(config, "NEXTCLOUDTALK_SERVER_INVALID");
      const conversationToken = text(config, "conversationToken");
      if (!conversationToken) fail("NEXTCLOUDTALK_TOKEN_INVALID", "The conversation token is required");
      if (!TOKEN.test(conversationToken)) fail("NEXTCLOUDTALK_TOKEN_INVALID", "The conversation token is the end of the conversation's link (…/call/abc123de): letters and digits");
      const botSecret = requiredText(config, "botSecret", { code: "NEXTCLOUDTALK_SECRET_REQUIRED", message: "The bot's secret is required" }, true);
      return { server, conversationToken, botSecret };
    }),

  async send(config, message, ctx) {
    const body = clip([message.title, ...message.lines].join("\n"), MAX_MESSAGE);
    const random = randomBytes(32).toString("hex");
    const url = `${config.server.replace(/\/+$/, "")}/ocs/v2.php/apps/spreed/api/v1/bot/${config.conversationToken}/message`;
    const sent = await postJson(ctx, url, { message: body }, {
      headers: {
        Accept: "application/json",
        "OCS-APIRequest": "true",
        "X-Nextcloud-Talk-Bot-Random": random,
        "X-Nextcloud-Talk-Bot-Signature": talkSignature(config.botSecret, random, body),
      },
      secrets: [config.botSecret],
    });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    if (answer.status === 201) return OK;
    const reply = answer.json as OcsAnswer | undefined;
    const said = reply?.ocs?.meta?.message;
    if (typeof said === "string" && said.trim()) return failure(answer, `Nextcloud Talk: ${snippet(said)}`);
    const hint = STATUS_HINTS[answer.status];
    return failure(answer, `Nextcloud Talk: ${describeAnswer(answer)}${hint ? ` (${hint})` : ""}`);
  },
};
