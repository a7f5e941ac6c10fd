// Pushbullet (https://docs.pushbullet.com/#create-push): a note to every device of the account, POST /v2/pushes with
// the Access-Token header. Pushbullet answers with the push (its iden), or { error: { message } }.
import { check, requiredText } from "./fields";
import { describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import { headerSafe, titleAndBody } from "./ntfy";
import type { Provider } from "./provider";

interface PushbulletAnswer {
  iden?: unknown;
  error?: { message?: unknown };
}

export const pushbullet: Provider<"pushbullet"> = {
  type: "pushbullet",
  secretFields: ["accessToken"],
  // A free account has 500 pushes a month (429 past it); one every two seconds keeps a storm from spending them.
  perMinute: 30,

  validate: (input) =>
    check(input, (config) => {
      const accessToken = requiredText(config, "accessToken", { code: "PUSHBULLET_TOKEN_REQUIRED", message: "An access token is required" }, true);
      headerSafe(accessToken, "accessToken");
      return { accessToken };
    }),

  async send(config, message, ctx) {
    const { title, body } = titleAndBody(message);
    const base = (ctx.endpoints.pushbullet ?? "https://api.pushbullet.com").replace(/\/+$/, "");
    const sent = await postJson(ctx, `${base}/v2/pushes`, { type: "note", ...(title ? { title } : {}), body }, {
      headers: { "Access-Token": config.accessToken },
      secrets: [config.accessToken],
    });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as PushbulletAnswer | undefined;
    if (success(answer) && typeof reply?.iden === "string") return OK;
    if (typeof reply?.error?.message === "string") return failure(answer, `Pushbullet: ${snippet(reply.error.message)}`);
    return failure(answer, `Pushbullet: ${describeAnswer(answer)}`);
  },
};
