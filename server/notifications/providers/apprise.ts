// Apprise through an Apprise API server (https://github.com/caronc/apprise-api): one request reaches every service
// of the Apprise URLs it carries (stateless: POST /notify/) or of a configuration stored on the server under a key
// (POST /notify/{key}, optionally only the URLs with a tag). The server answers 200 only when every service took the
// message; 424 when one or more did not (final: a retry would repeat the message to the ones that did).
import { check, fail, text } from "./fields";
import { describeAnswer, failure, OK, postJson, snippet } from "./http";
import { serverUrl, titleAndBody } from "./ntfy";
import type { Provider } from "./provider";

/** The API server's own rule for keys. */
const KEY = /^[A-Za-z0-9_-]{1,128}$/;
/** At least one `scheme://…` (mailto://, tgram://, json://…). */
const APPRISE_URL = /(^|[\s,])[A-Za-z][A-Za-z0-9+.-]*:\/\/\S/;
const MAX_URLS = 8192;
/** Apprise's tags: words, "," for either, " " for both. */
const TAG = /^[\w.\-, ]{1,200}$/;
const TYPE = { critical: "failure", ok: "success", info: "info" } as const;

interface AppriseAnswer {
  error?: unknown;
  /** Apprise's log lines: [level, time, message]. */
  details?: unknown;
}

/** The parts of Apprise URLs that may be keys (each URL, its credentials and path segments), kept out of errors. */
function urlSecrets(urls: string | undefined): string[] {
  if (!urls) return [];
  const out = [urls];
  for (const token of urls.split(/[\s,]+/).filter(Boolean)) {
    out.push(token);
    const rest = token.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\//, "");
    out.push(...rest.split(/[/:@?&=#]+/));
  }
  return out;
}

/** The first error Apprise logged, for the failure's text. */
function firstError(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const entry of details) {
    if (Array.isArray(entry) && (entry[0] === "ERROR" || entry[0] === "WARNING") && typeof entry[2] === "string") return entry[2];
  }
  return undefined;
}

export const apprise: Provider<"apprise"> = {
  type: "apprise",
  // Anyone with the key may read the stored configuration (its URLs hold the services' keys) from the server.
  secretFields: ["urls", "key"],
  // The API server sets no limit; the services behind it have their own (Telegram 20 a minute), so stay modest.
  perMinute: 30,

  target: (config) => ({ url: config.server }),
  validate: (input) =>
    check(input, (config) => {
      const server = serverUrl(config, "APPRISE_SERVER_INVALID");
      const urls = text(config, "urls", true);
      const key = text(config, "key", true);
      const tag = text(config, "tag");
      if (urls && key) fail("VALIDATION", "Use either Apprise URLs or a configuration key, not both");
      if (!urls && !key) fail("APPRISE_TARGET_REQUIRED", "Apprise URLs or a configuration key are required");
      if (urls && (urls.length > MAX_URLS || !APPRISE_URL.test(urls))) fail("APPRISE_URLS_INVALID", "Apprise URLs look like tgram://bottoken/chatid, separated by spaces");
      if (key && !KEY.test(key)) fail("APPRISE_KEY_INVALID", "The configuration key is 1-128 letters, digits, - or _");
      if (tag && !key) fail("VALIDATION", "A tag selects URLs of a stored configuration: it needs a configuration key");
      if (tag && !TAG.test(tag)) fail("VALIDATION", "tag must be words separated by commas (either) or spaces (both)");
      return { server, ...(urls ? { urls } : {}), ...(key ? { key } : {}), ...(tag ? { tag } : {}) };
    }),

  async send(config, message, ctx) {
    const { title, body } = titleAndBody(message);
    const payload = {
      ...(config.urls ? { urls: config.urls } : {}),
      ...(title ? { title } : {}),
      body,
      type: TYPE[message.severity],
      format: "text",
      ...(config.tag ? { tag: config.tag } : {}),
    };
    const path = config.key ? `/notify/${encodeURIComponent(config.key)}` : "/notify/";
    // JSON in, JSON out: the server answers {"error": null, …} on success, {"error": "…", "details": […]} otherwise.
    const sent = await postJson(ctx, `${config.server.replace(/\/+$/, "")}${path}`, payload, {
      headers: { Accept: "application/json" },
      secrets: [config.key, ...urlSecrets(config.urls)],
    });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as AppriseAnswer | undefined;
    const isObject = typeof reply === "object" && reply !== null && !Array.isArray(reply);
    if (answer.status === 200 && isObject && (reply.error === undefined || reply.error === null)) return OK;
    // 204: nothing to notify (no configuration under the key, no valid URL, no URL with the tag).
    if (answer.status === 204) return failure(answer, "Apprise API: nothing was notified (no configuration under this key, no valid Apprise URL, or none with the tag)");
    if (isObject && typeof reply.error === "string") {
      const detail = firstError(reply.details);
      return failure(answer, `Apprise API: ${snippet(detail ? `${reply.error}: ${detail}` : reply.error)}`);
    }
    return failure(answer, `Apprise API: ${describeAnswer(answer)}`);
  },
};
