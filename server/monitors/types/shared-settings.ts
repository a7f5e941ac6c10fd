// Settings more than one type reads, declared once: the API has one field of each name (host for tcp, dns and ping;
// the slow-answer limit for http and ping), so its rules must not differ between types; a request header is the
// same for http and websocket.
import { Type } from "@sinclair/typebox";
import { LIMITS } from "../public";

export const hostSetting = Type.String({
  description: "tcp: the host to connect to; dns: the name to look up; ping: the host pinged.",
  default: "",
  maxLength: LIMITS.hostLength,
  error: `Host must be a host name or IP address of at most ${LIMITS.hostLength} characters`,
});

export const maxResponseTimeSetting = Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: LIMITS.maxResponseTime })], {
  description: 'http: an answer slower than this many ms counts as down ("too slow: 2 340 ms > 1 000 ms"); ping: the same for the average round trip. null for none.',
  default: null,
  error: `The slow-answer limit must be a whole number of milliseconds from 1 to ${LIMITS.maxResponseTime}`,
});

/** One request header (http, websocket). */
export const headerSetting = Type.Object(
  {
    // RFC 9110 token characters.
    name: Type.String({
      minLength: 1,
      maxLength: LIMITS.headerNameLength,
      pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
      error: "Header names may only contain letters, digits and !#$%&'*+-.^_`|~",
    }),
    // Visible characters, spaces and tabs: no line breaks (no header injection).
    value: Type.String({
      maxLength: LIMITS.headerValueLength,
      pattern: "^[\\t\\x20-\\x7E\\x80-\\xFF]*$",
      error: `Header values must be at most ${LIMITS.headerValueLength} characters, without line breaks`,
    }),
  },
  { error: "Each header needs a name and a value" },
);
