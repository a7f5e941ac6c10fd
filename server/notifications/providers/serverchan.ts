// ServerChan / Server酱 (https://sct.ftqq.com, https://sc3.ft07.com): POST {sendKey}.send with a title and a markdown
// body. The SendKey picks the service: "SCT…" is Turbo (sctapi.ftqq.com), "sctp{uid}t…" is SC3 ({uid}.push.ft07.com).
import { check, fail, text } from "./fields";
import { clip, clipBytes, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import type { Provider, SendContext } from "./provider";

const TURBO = /^SCT[A-Za-z0-9]+$/;
const SC3 = /^sctp(\d+)t[A-Za-z0-9]+$/;
const MAX_TITLE = 32;
const MAX_DESP_BYTES = 32 * 1024;

interface ServerChanAnswer {
  code?: number;
  message?: string;
}

/**
 * Where a key sends. With an endpoint override (tests, a relay) both services share one base: Turbo at
 * `{base}/{key}.send`, SC3 at `{base}/send/{key}.send`, the paths the real hosts use.
 */
export function serverChanUrl(sendKey: string, ctx: Pick<SendContext, "endpoints">): string {
  const base = ctx.endpoints.serverchan?.replace(/\/+$/, "");
  const sc3 = SC3.exec(sendKey);
  if (sc3) return `${base ?? `https://${sc3[1]}.push.ft07.com`}/send/${sendKey}.send`;
  return `${base ?? "https://sctapi.ftqq.com"}/${sendKey}.send`;
}

export const serverchan: Provider<"serverchan"> = {
  type: "serverchan",
  secretFields: ["sendKey"],
  // Turbo's free tier allows only a handful of messages (a small daily quota): never more than 5 a minute.
  perMinute: 5,

  validate: (input) =>
    check(input, (config) => {
      const sendKey = text(config, "sendKey", true);
      if (!sendKey) fail("SERVERCHAN_KEY_INVALID", "SendKey is required");
      if (!TURBO.test(sendKey) && !SC3.test(sendKey)) fail("SERVERCHAN_KEY_INVALID", "SendKey must look like SCT… (Turbo) or sctp…t… (SC3)");
      return { sendKey };
    }),

  async send(config, message, ctx) {
    const payload = {
      title: clip(message.title, MAX_TITLE),
      // Markdown: a blank line keeps each fact on its own line.
      desp: clipBytes(message.lines.join("\n\n"), MAX_DESP_BYTES),
    };
    // The key is in the path: postJson's errors never carry the URL, and answers are redacted.
    const sent = await postJson(ctx, serverChanUrl(config.sendKey, ctx), payload, { secrets: [config.sendKey] });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as ServerChanAnswer | undefined;
    if (typeof reply?.code !== "number") return failure(answer, `ServerChan: ${describeAnswer(answer)}`);
    if (success(answer) && reply.code === 0) return OK;
    return failure(answer, `ServerChan: ${snippet(reply.message || "error")} (${reply.code})`);
  },
};
