// DingTalk custom robot (https://open.dingtalk.com/document/robots/custom-robot-access): markdown message, optional
// "加签" signature in the query string.
import { createHmac } from "node:crypto";
import { check, urlWithSecret } from "./fields";
import { clipBytes, describeAnswer, failure, OK, postJson, snippet, success, urlSecrets } from "./http";
import type { Provider } from "./provider";

/** "send too fast": the robot is throttled (for 10 minutes, say DingTalk's docs). */
const RATE_LIMITED = 130101;
const THROTTLE_MS = 10 * 60_000;

interface DingTalkAnswer {
  errcode?: number;
  errmsg?: string;
}

/** DingTalk's 加签: base64(HMAC-SHA256(key = secret, message = `${timestamp}\n${secret}`)), URL-encoded. */
export function dingtalkSign(secret: string, timestamp: number): string {
  return encodeURIComponent(createHmac("sha256", secret).update(`${timestamp}\n${secret}`).digest("base64"));
}

export const dingtalk: Provider<"dingtalk"> = {
  type: "dingtalk",
  // The URL carries the access_token.
  secretFields: ["url", "secret"],
  // 20 messages per minute per robot.
  perMinute: 20,

  target: (config) => ({ url: config.url }),
  validate: (input) => check(input, (config) => urlWithSecret(config, "dingtalk")),

  async send(config, message, ctx) {
    let url = config.url;
    if (config.secret) {
      const timestamp = ctx.now();
      url += `${url.includes("?") ? "&" : "?"}timestamp=${timestamp}&sign=${dingtalkSign(config.secret, timestamp)}`;
    }
    // Markdown needs a blank line for a line break; the whole message is limited to 20 000 bytes.
    const body = clipBytes([`#### ${message.title}`, ...message.lines].join("\n\n"), 19_000);
    const sent = await postJson(ctx, url, { msgtype: "markdown", markdown: { title: message.title, text: body } }, {
      secrets: [...urlSecrets(config.url), config.secret],
    });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as DingTalkAnswer | undefined;
    if (typeof reply?.errcode !== "number") return failure(answer, `DingTalk: ${describeAnswer(answer)}`);
    if (success(answer) && reply.errcode === 0) return OK;
    const limited = reply.errcode === RATE_LIMITED;
    return failure(answer, `DingTalk: ${snippet(String(reply.errmsg ?? "error"))} (${reply.errcode})`, {
      retryable: limited || undefined,
      retryAfterMs: limited ? THROTTLE_MS : undefined,
    });
  },
};
