// PushPlus / 推送加 (https://www.pushplus.plus/doc/guide/api.html): POST /send with the user's token, plain text, to
// the user's WeChat or, with a topic, to a group.
import { check, fail, text } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import type { Provider } from "./provider";

const TOKEN = /^[0-9a-f]{32}$/i;
/** A group code (群组编码): one word. */
const TOPIC = /^\S{1,64}$/;
/** Caps of our own: a WeChat card shows only a short title, and an alert never needs a long text. */
const MAX_TITLE = 100;
const MAX_CONTENT = 20_000;
/** 900: the account is restricted for sending too often; 999: a server error. Both pass with time. */
const RETRY_CODES = new Set([900, 999]);

interface PushPlusAnswer {
  code?: number;
  msg?: string;
}

export const pushplus: Provider<"pushplus"> = {
  type: "pushplus",
  secretFields: ["token"],
  // Free accounts get a small daily quota and are restricted (code 900) when they send in bursts.
  perMinute: 10,

  validate: (input) =>
    check(input, (config) => {
      const token = text(config, "token", true);
      if (!token) fail("PUSHPLUS_TOKEN_INVALID", "Token is required");
      if (!TOKEN.test(token)) fail("PUSHPLUS_TOKEN_INVALID", "Token must be 32 hexadecimal characters");
      const topic = text(config, "topic");
      if (topic && !TOPIC.test(topic)) fail("VALIDATION", `topic must be a group code without spaces (got ${JSON.stringify(clip(topic, 40))})`);
      return { token, ...(topic ? { topic } : {}) };
    }),

  async send(config, message, ctx) {
    const payload = {
      token: config.token,
      title: clip(message.title, MAX_TITLE),
      // content is required: the title stands in when there are no lines.
      content: clip(message.lines.join("\n") || message.title, MAX_CONTENT),
      template: "txt",
      ...(config.topic ? { topic: config.topic } : {}),
    };
    const base = (ctx.endpoints.pushplus ?? "https://www.pushplus.plus").replace(/\/+$/, "");
    const sent = await postJson(ctx, `${base}/send`, payload, { secrets: [config.token] });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as PushPlusAnswer | undefined;
    if (typeof reply?.code !== "number") return failure(answer, `PushPlus: ${describeAnswer(answer)}`);
    if (success(answer) && reply.code === 200) return OK;
    return failure(answer, `PushPlus: ${snippet(reply.msg || "error")} (${reply.code})`, { retryable: RETRY_CODES.has(reply.code) || undefined });
  },
};
