// Pushover (https://pushover.net/api): a form POST to /1/messages.json with the application token and user key.
import { check, fail, text } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import { integerIn, titleAndBody } from "./ntfy";
import type { Provider } from "./provider";

const KEY = /^[A-Za-z0-9]{30}$/;
/** Built-in sound names and custom ones uploaded to the account. */
const SOUND = /^[A-Za-z0-9_-]{1,20}$/;
const MAX_TITLE = 250;
const MAX_MESSAGE = 1024;
/** Emergency (2) repeats every `retry` seconds (at least 30) until acknowledged or `expire` seconds (at most 10800) pass. */
const EMERGENCY = { retry: "60", expire: "3600" };

interface PushoverAnswer {
  status?: number;
  errors?: unknown;
}

function key(config: Record<string, unknown>, field: string, code: string, name: string): string {
  const value = text(config, field, true);
  if (!value) fail(code, `${name} is required`);
  if (!KEY.test(value)) fail(code, `${name} must be 30 letters and digits`);
  return value;
}

export const pushover: Provider<"pushover"> = {
  type: "pushover",
  secretFields: ["userKey", "appToken"],
  // Pushover counts messages per month, not per minute; one a second stays polite.
  perMinute: 60,

  validate: (input) =>
    check(input, (config) => {
      const userKey = key(config, "userKey", "PUSHOVER_USER_INVALID", "User key");
      const appToken = key(config, "appToken", "PUSHOVER_TOKEN_INVALID", "Application token");
      const priority = integerIn(config, "priority", -2, 2);
      const sound = text(config, "sound");
      if (sound && !SOUND.test(sound)) fail("VALIDATION", `sound must be a Pushover sound name such as "siren" (got ${JSON.stringify(clip(sound, 40))})`);
      return { userKey, appToken, ...(priority !== undefined ? { priority } : {}), ...(sound ? { sound } : {}) };
    }),

  async send(config, message, ctx) {
    const { title, body } = titleAndBody(message);
    const priority = config.priority ?? (message.severity === "critical" ? 1 : 0);
    const form = new URLSearchParams({ token: config.appToken, user: config.userKey });
    if (title) form.set("title", clip(title, MAX_TITLE));
    form.set("message", clip(body, MAX_MESSAGE));
    form.set("priority", String(priority));
    if (priority === 2) for (const [name, value] of Object.entries(EMERGENCY)) form.set(name, value);
    if (config.sound) form.set("sound", config.sound);
    const base = (ctx.endpoints.pushover ?? "https://api.pushover.net").replace(/\/+$/, "");
    const sent = await postJson(ctx, `${base}/1/messages.json`, form.toString(), {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      secrets: [config.appToken, config.userKey],
    });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as PushoverAnswer | undefined;
    if (success(answer) && reply?.status === 1) return OK;
    const errors = Array.isArray(reply?.errors) ? reply.errors.filter((e): e is string => typeof e === "string") : [];
    if (!errors.length) return failure(answer, `Pushover: ${describeAnswer(answer)}`);
    return failure(answer, `Pushover: ${snippet(errors.join("; "))}`);
  },
};
