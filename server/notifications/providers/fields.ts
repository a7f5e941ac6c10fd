// Config checking shared by the providers: each reads its fields in order and stops at the first problem, with the
// spec's code and message for the known ones and VALIDATION (naming the field and what was sent) for the rest.
import type { ConfigError } from "./provider";
import { fitsUrlShape, hasUrlShape, isWebhookUrl, urlShapeMessage } from "./webhook-url";

/** Thrown inside a validate() and turned into its `{ ok: false, error }` by `check`. */
class Invalid extends Error {
  constructor(readonly error: ConfigError) {
    super(error.message);
  }
}

export function fail(code: string, message: string): never {
  throw new Invalid({ code, message });
}

export const URL_REQUIRED: ConfigError = { code: "WEBHOOK_URL_REQUIRED", message: "Webhook URL is required" };
export const URL_INVALID: ConfigError = { code: "WEBHOOK_URL_INVALID", message: "Webhook URL must start with http:// or https://" };

/** Runs a reader over a config; the reader throws (via the helpers below) at the first problem. */
export function check<C>(config: unknown, read: (config: Record<string, unknown>) => C): { ok: true; config: C } | { ok: false; error: ConfigError } {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return { ok: false, error: { code: "VALIDATION", message: `config must be an object (got ${describe(config)})` } };
  }
  try {
    return { ok: true, config: read(config as Record<string, unknown>) };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, error: e.error };
    throw e;
  }
}

/**
 * A trimmed string field; "" when absent (undefined / null) or blank, so callers decide whether it is required.
 * A secret's value is never echoed in the message.
 */
export function text(config: Record<string, unknown>, field: string, secret = false): string {
  const value = config[field];
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") fail("VALIDATION", `${field} must be a string (got ${describe(value, secret)})`);
  return value.trim();
}

/** A required string field: `required` when absent or blank. */
export function requiredText(config: Record<string, unknown>, field: string, required: ConfigError, secret = false): string {
  const value = text(config, field, secret);
  if (!value) fail(required.code, required.message);
  return value;
}

/**
 * The `url` field of the webhook-style types: http(s), parsable, at most 2048 characters, and of the provider's shape
 * (webhook-url.ts); a secret (it may carry a key).
 */
export function webhookUrl(config: Record<string, unknown>, type: string): string {
  const value = requiredText(config, "url", URL_REQUIRED, true);
  if (!isWebhookUrl(value)) fail(URL_INVALID.code, URL_INVALID.message);
  if (hasUrlShape(type) && !fitsUrlShape(type, value)) fail("WEBHOOK_URL_SHAPE", urlShapeMessage(type));
  return value;
}

/** What was sent, for a VALIDATION message: the value itself when short and not secret, else its kind. */
export function describe(value: unknown, secret = false): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  const kind = typeof value;
  if (secret) return kind === "object" ? "an object" : `a ${kind}`;
  if (kind === "string") {
    const s = value as string;
    return JSON.stringify(s.length > 40 ? `${s.slice(0, 39)}…` : s);
  }
  if (kind === "number" || kind === "boolean" || kind === "bigint") return `${kind} ${String(value)}`;
  return kind === "object" ? "an object" : `a ${kind}`;
}

/** A webhook URL with an optional signing secret (webhook, DingTalk, Feishu). */
export function urlWithSecret(config: Record<string, unknown>, type: string): { url: string; secret?: string } {
  const url = webhookUrl(config, type);
  const secret = text(config, "secret", true);
  return secret ? { url, secret } : { url };
}
