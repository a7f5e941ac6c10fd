// The http check's settings: the API takes them as flat fields of the monitor (url, method…), the store keeps them as
// the monitor's settings object. No elysia or drivers here: the UI and the agent import it.
import { Type } from "@sinclair/typebox";
import { DEFAULTS, LIMITS, MONITOR_METHODS } from "../../public";
import { headerSetting, maxResponseTimeSetting } from "../shared-settings";

export const STATUS_MESSAGE = "Expected status must be a code like 200, a class like 2xx or a range like 200-299 (several separated by commas)";

const flag = (name: string, value: boolean, description: string) => Type.Boolean({ description, default: value, error: `${name} must be true or false` });

export const httpSettings = Type.Object({
  // Required: no default (a monitor of another type shows "").
  url: Type.String({
    description: "Required for http: the address checked (http or https, with a host).",
    minLength: 1,
    maxLength: LIMITS.urlLength,
    error: `URL is required: an http:// or https:// address of at most ${LIMITS.urlLength} characters`,
  }),
  method: Type.Union(
    MONITOR_METHODS.map((m) => Type.Literal(m)),
    { description: "Default GET.", default: DEFAULTS.method, error: `Method must be one of ${MONITOR_METHODS.join(", ")}` },
  ),
  // Checked by expected-status.ts (ranges must go low to high, which a pattern cannot say).
  expectedStatus: Type.String({
    description: '"200", "2xx" or a comma list ("200,301,3xx"). Default "2xx".',
    default: DEFAULTS.expectedStatus,
    minLength: 1,
    maxLength: 200,
    error: STATUS_MESSAGE,
  }),
  headers: Type.Array(headerSetting, { default: [], maxItems: LIMITS.maxHeaders, error: `At most ${LIMITS.maxHeaders} headers` }),
  body: Type.Union([Type.Null(), Type.String({ maxLength: LIMITS.bodyBytes })], {
    description: 'Request body; not allowed with GET or HEAD. null or "" for none.',
    default: null,
    error: "The request body must be text of at most 64 KB",
  }),
  followRedirects: flag("followRedirects", DEFAULTS.followRedirects, 'Default true; when false a 3xx is the answer (expect "3xx" then).'),
  keyword: Type.Union([Type.Null(), Type.String({ maxLength: LIMITS.keywordLength })], {
    description: "The body (first 1 MB) must contain this text (or must not, with keywordInvert). null for none.", default: null,
    error: `The keyword must be text of at most ${LIMITS.keywordLength} characters`,
  }),
  keywordInvert: flag("keywordInvert", false, "true = down when the keyword IS found. Default false."),
  keywordCaseSensitive: flag("keywordCaseSensitive", false, "Default false (the keyword matches whatever its case)."),
  jsonPath: Type.Union([Type.Null(), Type.String({ maxLength: LIMITS.jsonPathLength })], {
    description: "A JSON path assertion on the body, e.g. `$.status == \"ok\"`, `$.queue.length < 100`.", default: null,
    error: `The JSON path must be text of at most ${LIMITS.jsonPathLength} characters`,
  }),
  maxResponseTime: maxResponseTimeSetting,
  ignoreTls: flag("ignoreTls", false, "Accept invalid, self-signed or expired certificates. Default false."),
  freshConnection: flag("freshConnection", false, "Open a new connection (and a full TLS handshake) for every check instead of reusing a kept-alive one. Default false."),
  tlsExpiryDays: Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: LIMITS.maxTlsExpiryDays })], {
    description: "Down when the TLS certificate expires within this many days (1-365). null (default) for never.", default: null,
    error: `TLS expiry warning must be a whole number of days from 1 to ${LIMITS.maxTlsExpiryDays}`,
  }),
});
