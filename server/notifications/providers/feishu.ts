// Feishu / Lark custom bot (https://open.feishu.cn/document/client-docs/bot-v3/add-custom-bot): an interactive card
// coloured by severity, optionally signed.
import { createHmac } from "node:crypto";
import { check, urlWithSecret } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success, urlSecrets } from "./http";
import type { Provider } from "./provider";

/** "request trigger frequency limit". */
const RATE_LIMITED = 11232;
const TEMPLATE = { critical: "red", ok: "green", info: "blue" } as const;

interface FeishuAnswer {
  code?: number;
  msg?: string;
  /** The older answer shape. */
  StatusCode?: number;
  StatusMessage?: string;
}

/** Feishu's scheme: base64(HMAC-SHA256 keyed with `${timestamp}\n${secret}` over an empty message); timestamp in s. */
export function feishuSign(secret: string, timestampSeconds: string): string {
  return createHmac("sha256", `${timestampSeconds}\n${secret}`).update("").digest("base64");
}

export const feishu: Provider<"feishu"> = {
  type: "feishu",
  // The URL carries the hook id.
  secretFields: ["url", "secret"],
  perMinute: 100,

  target: (config) => ({ url: config.url }),
  validate: (input) => check(input, (config) => urlWithSecret(config, "feishu")),

  async send(config, message, ctx) {
    const content = clip(message.lines.join("\n"), 10_000);
    const card = {
      header: { title: { tag: "plain_text", content: message.title }, template: TEMPLATE[message.severity] },
      elements: content ? [{ tag: "div", text: { tag: "lark_md", content } }] : [],
    };
    let signature = {};
    if (config.secret) {
      const timestamp = String(Math.floor(ctx.now() / 1000));
      signature = { timestamp, sign: feishuSign(config.secret, timestamp) };
    }
    const sent = await postJson(ctx, config.url, { ...signature, msg_type: "interactive", card }, {
      secrets: [...urlSecrets(config.url), config.secret],
    });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as FeishuAnswer | undefined;
    const code = reply?.code ?? reply?.StatusCode;
    if (typeof code !== "number") return failure(answer, `Feishu: ${describeAnswer(answer)}`);
    if (success(answer) && code === 0) return OK;
    return failure(answer, `Feishu: ${snippet(String(reply?.msg ?? reply?.StatusMessage ?? "error"))} (${code})`, {
      retryable: code === RATE_LIMITED || undefined,
    });
  },
};
