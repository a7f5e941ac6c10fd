// WeCom (企业微信) group robot (https://developer.work.weixin.qq.com/document/path/91770): markdown message.
import { check, webhookUrl } from "./fields";
import { clipBytes, describeAnswer, failure, OK, postJson, snippet, success, urlSecrets } from "./http";
import type { Provider } from "./provider";

/** "api freq out of limit". */
const RATE_LIMITED = 45009;

interface WeComAnswer {
  errcode?: number;
  errmsg?: string;
}

export const wecom: Provider<"wecom"> = {
  type: "wecom",
  // The URL carries the robot's key.
  secretFields: ["url"],
  // 20 messages per minute per robot.
  perMinute: 20,

  target: (config) => ({ url: config.url }),
  validate: (input) => check(input, (config) => ({ url: webhookUrl(config, "wecom") })),

  async send(config, message, ctx) {
    // markdown.content is limited to 4096 UTF-8 bytes.
    const content = clipBytes([`**${message.title}**`, ...message.lines].join("\n"), 4096);
    const sent = await postJson(ctx, config.url, { msgtype: "markdown", markdown: { content } }, { secrets: urlSecrets(config.url) });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as WeComAnswer | undefined;
    if (typeof reply?.errcode !== "number") return failure(answer, `WeCom: ${describeAnswer(answer)}`);
    if (success(answer) && reply.errcode === 0) return OK;
    return failure(answer, `WeCom: ${snippet(String(reply.errmsg ?? "error"))} (${reply.errcode})`, {
      retryable: reply.errcode === RATE_LIMITED || undefined,
    });
  },
};
