// Gotify (https://gotify.net/api-docs#/message/createMessage): POST /message with an application token, plain text.
import { check, requiredText } from "./fields";
import { describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import { headerSafe, integerIn, serverUrl, titleAndBody } from "./ntfy";
import type { Provider } from "./provider";

/** Gotify's clients treat 8+ as urgent (sound and pop-up on Android), 4-7 as a normal notification, 1-3 as quiet. */
const PRIORITY = { critical: 8, ok: 4, info: 2 } as const;

interface GotifyAnswer {
  id?: number;
  error?: string;
  errorCode?: number;
  errorDescription?: string;
}

export const gotify: Provider<"gotify"> = {
  type: "gotify",
  secretFields: ["token"],
  // Gotify sets no limit; one a second keeps a small self-hosted server comfortable.
  perMinute: 60,

  target: (config) => ({ url: config.server }),
  validate: (input) =>
    check(input, (config) => {
      const server = serverUrl(config, "GOTIFY_SERVER_INVALID");
      const token = requiredText(config, "token", { code: "GOTIFY_TOKEN_REQUIRED", message: "Application token is required" }, true);
      headerSafe(token, "token");
      const priority = integerIn(config, "priority", 0, 10);
      return { server, token, ...(priority !== undefined ? { priority } : {}) };
    }),

  async send(config, message, ctx) {
    const { title, body } = titleAndBody(message);
    const payload = {
      ...(title ? { title } : {}),
      message: body,
      priority: config.priority ?? PRIORITY[message.severity],
      // Shown as typed, never rendered as markdown.
      extras: { "client::display": { contentType: "text/plain" } },
    };
    const url = `${config.server.replace(/\/+$/, "")}/message`;
    const sent = await postJson(ctx, url, payload, { headers: { "X-Gotify-Key": config.token }, secrets: [config.token] });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as GotifyAnswer | undefined;
    if (success(answer) && typeof reply?.id === "number") return OK;
    if (typeof reply?.error !== "string") return failure(answer, `Gotify: ${describeAnswer(answer)}`);
    const description = typeof reply.errorDescription === "string" && reply.errorDescription ? `: ${reply.errorDescription}` : "";
    return failure(answer, `Gotify: ${snippet(`${reply.error}${description}`)}`);
  },
};
