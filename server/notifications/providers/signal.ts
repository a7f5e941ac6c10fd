// Signal through signal-cli-rest-api (https://github.com/bbernhard/signal-cli-rest-api): POST /v2/send from a number
// registered there to phone numbers, usernames or groups. It answers 201 with the message's timestamp; 400 with an
// error; 429 when Signal's servers want a challenge solved for the sender.
import { check, describe, fail, text } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import { serverUrl } from "./ntfy";
import type { Provider } from "./provider";

/** E.164: +, a country code, up to 15 digits. */
export const PHONE = /^\+[1-9]\d{6,14}$/;
/** A number, a username, a UUID or a group id ("group.…"): one word. */
const RECIPIENT = /^[^\s,]{1,256}$/;
const MAX_RECIPIENTS = 50;
/** Signal's limit for one text message (longer ones go as an attachment, which the REST API does not make for us). */
const MAX_MESSAGE = 2000;

interface SignalAnswer {
  timestamp?: unknown;
  error?: unknown;
}

/** A list field given as an array or as one string separated by commas or spaces; blanks and duplicates dropped. */
export function wordList(config: Record<string, unknown>, field: string): string[] {
  const raw = config[field];
  if (raw === undefined || raw === null) return [];
  let parts: unknown[];
  if (typeof raw === "string") parts = raw.split(/[\s,]+/);
  else if (Array.isArray(raw)) parts = raw;
  else return fail("VALIDATION", `${field} must be a list of strings or a comma-separated string (got ${describe(raw)})`);
  const out = new Set<string>();
  for (const part of parts) {
    if (typeof part !== "string") fail("VALIDATION", `${field} must be a list of strings (got ${describe(part)} in it)`);
    if (part.trim()) out.add(part.trim());
  }
  return [...out];
}

export const signal: Provider<"signal"> = {
  type: "signal",
  secretFields: [],
  // Signal publishes no limit; its servers push back (429, a challenge) on bursts from one number.
  perMinute: 30,

  target: (config) => ({ url: config.server }),
  validate: (input) =>
    check(input, (config) => {
      const server = serverUrl(config, "SIGNAL_SERVER_INVALID");
      const number = text(config, "number");
      if (!number) fail("SIGNAL_NUMBER_INVALID", "The sender number is required");
      if (!PHONE.test(number)) fail("SIGNAL_NUMBER_INVALID", "The sender number must be in international format, e.g. +4915112345678");
      const recipients = wordList(config, "recipients");
      if (recipients.length === 0) fail("SIGNAL_RECIPIENTS_INVALID", "At least one recipient is required");
      if (recipients.length > MAX_RECIPIENTS) fail("SIGNAL_RECIPIENTS_INVALID", `At most ${MAX_RECIPIENTS} recipients`);
      const bad = recipients.find((r) => !RECIPIENT.test(r));
      if (bad) fail("SIGNAL_RECIPIENTS_INVALID", "Each recipient is a number (+…), a username or a group id");
      return { server, number, recipients };
    }),

  async send(config, message, ctx) {
    const payload = {
      message: clip([message.title, ...message.lines].join("\n"), MAX_MESSAGE),
      number: config.number,
      recipients: config.recipients,
    };
    const sent = await postJson(ctx, `${config.server.replace(/\/+$/, "")}/v2/send`, payload);
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as SignalAnswer | undefined;
    if (success(answer) && (typeof reply?.timestamp === "number" || typeof reply?.timestamp === "string")) return OK;
    if (typeof reply?.error === "string") return failure(answer, `Signal: ${snippet(reply.error)}`);
    return failure(answer, `Signal: ${describeAnswer(answer)}`);
  },
};
