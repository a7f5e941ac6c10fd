// Bark (https://github.com/Finb/bark-server/blob/master/docs/API_V2.md): POST /push with the device key, to an iPhone
// through the official server (https://api.day.app) or your own.
import { check, describe, fail, requiredText, text } from "./fields";
import { clip, clipBytes, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import { serverUrl, titleAndBody } from "./ntfy";
import type { Provider } from "./provider";

const LEVELS = ["active", "timeSensitive", "passive", "critical"] as const;
/** The key is part of Bark's own URLs (/{key}/title/body), so it holds no separators. */
const DEVICE_KEY = /^[A-Za-z0-9_-]+$/;
/** An APNs payload is at most 4 KB with title, body and Bark's own fields together. */
const MAX_TITLE = 200;
const MAX_BODY_BYTES = 3000;

interface BarkAnswer {
  code?: number;
  message?: string;
}

export const bark: Provider<"bark"> = {
  type: "bark",
  secretFields: ["deviceKey"],
  // Bark sets no limit of its own; Apple throttles a device that gets too many pushes.
  perMinute: 60,

  target: (config) => ({ url: config.server }),
  validate: (input) =>
    check(input, (config) => {
      const server = serverUrl(config, "BARK_SERVER_INVALID");
      const deviceKey = requiredText(config, "deviceKey", { code: "BARK_KEY_REQUIRED", message: "Device key is required" }, true);
      if (!DEVICE_KEY.test(deviceKey)) fail("VALIDATION", "deviceKey must hold only letters, digits, - and _");
      const group = text(config, "group");
      const level = text(config, "level");
      if (level && !(LEVELS as readonly string[]).includes(level)) {
        fail("VALIDATION", `level must be active, timeSensitive, passive or critical (got ${describe(config.level)})`);
      }
      return {
        server,
        deviceKey,
        ...(group ? { group } : {}),
        ...(level ? { level: level as (typeof LEVELS)[number] } : {}),
      };
    }),

  async send(config, message, ctx) {
    const { title, body } = titleAndBody(message);
    const payload = {
      device_key: config.deviceKey,
      ...(title ? { title: clip(title, MAX_TITLE) } : {}),
      body: clipBytes(body, MAX_BODY_BYTES),
      ...(config.group ? { group: config.group } : {}),
      // Time-sensitive breaks through Focus modes; "critical" (also through silent mode) only when chosen.
      level: config.level ?? (message.severity === "critical" ? "timeSensitive" : "active"),
    };
    const url = `${config.server.replace(/\/+$/, "")}/push`;
    const sent = await postJson(ctx, url, payload, { secrets: [config.deviceKey] });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as BarkAnswer | undefined;
    if (success(answer) && reply?.code === 200) return OK;
    if (typeof reply?.message !== "string" || !reply.message) return failure(answer, `Bark: ${describeAnswer(answer)}`);
    const code = typeof reply.code === "number" ? ` (${reply.code})` : "";
    return failure(answer, `Bark: ${snippet(reply.message)}${code}`);
  },
};
