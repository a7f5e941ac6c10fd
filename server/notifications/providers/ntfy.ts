// ntfy (https://docs.ntfy.sh/publish/#publish-as-json): a JSON publish to the server's root, plain text, with an
// access token or user/password when the topic is protected.
import { check, describe, fail, text } from "./fields";
import { clipBytes, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import type { NotificationMessage, Provider } from "./provider";
import { isWebhookUrl } from "./webhook-url";

const TOPIC = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_TAGS = 10;
/** Longer messages become an "attachment.txt" (or are refused where attachments are off). */
const MAX_MESSAGE_BYTES = 4096;
const PRIORITY = { critical: 4, ok: 3, info: 3 } as const;
/** Shown as an emoji before the title. */
const SEVERITY_TAG = { critical: "rotating_light", ok: "white_check_mark", info: "information_source" } as const;

interface NtfyAnswer {
  id?: string;
  code?: number;
  error?: string;
}

/**
 * A self-hosted service's `server` field: http(s), without a trailing slash. Credentials, a query or a fragment are
 * refused because the URL is shown unmasked (ntfy, Gotify, Bark).
 */
export function serverUrl(config: Record<string, unknown>, code: string): string {
  const value = text(config, "server");
  if (!value) fail(code, "Server URL is required");
  if (!isWebhookUrl(value)) fail(code, "Server URL must start with http:// or https://");
  const url = new URL(value);
  if (url.username || url.password || url.search || url.hash) fail(code, "Server URL must not contain credentials, a query or a fragment");
  return value.replace(/\/+$/, "");
}

/** An optional whole number in [min, max] (a numeric string from a form is taken too); undefined when absent. */
export function integerIn(config: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const raw = config[field];
  if (raw === undefined || raw === null || (typeof raw === "string" && !raw.trim())) return undefined;
  const value = typeof raw === "string" && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    fail("VALIDATION", `${field} must be a whole number from ${min} to ${max} (got ${describe(raw)})`);
  }
  return value;
}

/** A credential that goes into a header: one word of printable ASCII. */
export function headerSafe(value: string, field: string): string {
  if (value && !/^[\x21-\x7e]+$/.test(value)) fail("VALIDATION", `${field} must not contain spaces or non-ASCII characters`);
  return value;
}

/** The message with its title, or the title alone as the message when there are no lines (a message is required). */
export function titleAndBody(message: NotificationMessage): { title?: string; body: string } {
  const body = message.lines.join("\n");
  return body ? { title: message.title, body } : { body: message.title };
}

function tags(config: Record<string, unknown>): string[] {
  const raw = config.tags;
  if (raw === undefined || raw === null) return [];
  let list: unknown[];
  if (typeof raw === "string") list = raw.split(",");
  else if (Array.isArray(raw)) list = raw;
  else return fail("VALIDATION", `tags must be a list of strings or a comma-separated string (got ${describe(raw)})`);
  const out: string[] = [];
  for (const tag of list) {
    if (typeof tag !== "string") fail("VALIDATION", `tags must be a list of strings (got ${describe(tag)} in it)`);
    if (tag.trim()) out.push(tag.trim());
  }
  if (out.length > MAX_TAGS) fail("VALIDATION", `tags may hold at most ${MAX_TAGS} tags (got ${out.length})`);
  return out;
}

export const ntfy: Provider<"ntfy"> = {
  type: "ntfy",
  secretFields: ["token", "password"],
  // ntfy.sh allows a burst of 60 requests, then one every 5 s per visitor; a 429 says when to retry.
  perMinute: 60,

  target: (config) => ({ url: config.server }),
  validate: (input) =>
    check(input, (config) => {
      const server = serverUrl(config, "NTFY_SERVER_INVALID");
      const topic = text(config, "topic");
      if (!topic) fail("NTFY_TOPIC_INVALID", "Topic is required");
      if (!TOPIC.test(topic)) fail("NTFY_TOPIC_INVALID", "Topic must be 1-64 letters, digits, - or _");
      const token = headerSafe(text(config, "token", true), "token");
      const username = text(config, "username");
      const password = text(config, "password", true);
      if (token && (username || password)) fail("VALIDATION", "Use either an access token or a username and password, not both");
      if (password && !username) fail("VALIDATION", "A password needs a username");
      if (username && !password) fail("VALIDATION", "A username needs a password");
      // Basic auth joins them with ":", so the name cannot hold one.
      if (username.includes(":")) fail("VALIDATION", "username must not contain a colon");
      const priority = integerIn(config, "priority", 1, 5);
      const list = tags(config);
      return {
        server,
        topic,
        ...(token ? { token } : {}),
        ...(username ? { username, password } : {}),
        ...(priority !== undefined ? { priority } : {}),
        ...(list.length ? { tags: list } : {}),
      };
    }),

  async send(config, message, ctx) {
    const { title, body } = titleAndBody(message);
    const payload = {
      topic: config.topic,
      ...(title ? { title } : {}),
      message: clipBytes(body, MAX_MESSAGE_BYTES),
      priority: config.priority ?? PRIORITY[message.severity],
      tags: [...(config.tags ?? []), SEVERITY_TAG[message.severity]],
    };
    const headers: Record<string, string> = {};
    const secrets = [config.token, config.password];
    if (config.token) headers.Authorization = `Bearer ${config.token}`;
    else if (config.username && config.password) {
      const basic = Buffer.from(`${config.username}:${config.password}`).toString("base64");
      headers.Authorization = `Basic ${basic}`;
      secrets.push(basic);
    }
    const sent = await postJson(ctx, `${config.server.replace(/\/+$/, "")}/`, payload, { headers, secrets });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as NtfyAnswer | undefined;
    if (success(answer) && typeof reply?.id === "string") return OK;
    if (typeof reply?.error !== "string") return failure(answer, `ntfy: ${describeAnswer(answer)}`);
    const code = typeof reply.code === "number" ? ` (${reply.code})` : "";
    return failure(answer, `ntfy: ${snippet(reply.error)}${code}`);
  },
};
