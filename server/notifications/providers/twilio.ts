// Twilio SMS (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource): a form POST to
// /2010-04-01/Accounts/{AccountSid}/Messages.json with basic auth, the account SID and auth token (or an API key's SID
// and secret). Twilio answers 201 with the message's sid (queued), or an error with Twilio's code.
import { check, fail, text } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import { headerSafe } from "./ntfy";
import type { Provider } from "./provider";
import { PHONE } from "./signal";

const SID = (prefix: string) => new RegExp(`^${prefix}[0-9a-f]{32}$`, "i");
const ACCOUNT_SID = SID("AC");
const API_KEY_SID = SID("SK");
const SERVICE_SID = SID("MG");
/** An alphanumeric sender ID: up to 11 letters, digits and spaces, at least one letter. */
const SENDER_ID = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;
/** Twilio's limit for one message body (it is split into segments, each billed). */
const MAX_BODY = 1600;

interface TwilioAnswer {
  sid?: unknown;
  code?: unknown;
  message?: unknown;
}

function optionalSid(config: Record<string, unknown>, field: string, pattern: RegExp, prefix: string): string {
  const value = text(config, field);
  if (value && !pattern.test(value)) fail("VALIDATION", `${field} must be ${prefix} followed by 32 hexadecimal characters`);
  return value;
}

export const twilio: Provider<"twilio"> = {
  type: "twilio",
  secretFields: ["authToken"],
  // A long code sends one segment a second; more wait in Twilio's queue, which is what we avoid.
  perMinute: 60,

  validate: (input) =>
    check(input, (config) => {
      const accountSid = text(config, "accountSid");
      if (!accountSid) fail("TWILIO_SID_INVALID", "The Account SID is required");
      if (!ACCOUNT_SID.test(accountSid)) fail("TWILIO_SID_INVALID", "The Account SID is AC followed by 32 hexadecimal characters");
      const authToken = headerSafe(text(config, "authToken", true), "authToken");
      if (!authToken) fail("TWILIO_TOKEN_REQUIRED", "The auth token (or the API key's secret) is required");
      const apiKeySid = optionalSid(config, "apiKeySid", API_KEY_SID, "SK");
      const messagingServiceSid = optionalSid(config, "messagingServiceSid", SERVICE_SID, "MG");
      const fromNumber = text(config, "fromNumber");
      if (!fromNumber && !messagingServiceSid) fail("TWILIO_FROM_INVALID", "A sender (number or sender ID) or a Messaging Service SID is required");
      if (fromNumber && !PHONE.test(fromNumber) && !SENDER_ID.test(fromNumber)) fail("TWILIO_FROM_INVALID", "The sender is a number in international format (+15551234567) or a sender ID of up to 11 letters and digits");
      const toNumber = text(config, "toNumber");
      if (!toNumber) fail("TWILIO_TO_INVALID", "The number to text is required");
      if (!PHONE.test(toNumber)) fail("TWILIO_TO_INVALID", "The number to text is in international format, e.g. +15551234567");
      return {
        accountSid,
        authToken,
        ...(apiKeySid ? { apiKeySid } : {}),
        ...(fromNumber ? { fromNumber } : {}),
        ...(messagingServiceSid ? { messagingServiceSid } : {}),
        toNumber,
      };
    }),

  async send(config, message, ctx) {
    const form = new URLSearchParams({ To: config.toNumber });
    if (config.fromNumber) form.set("From", config.fromNumber);
    if (config.messagingServiceSid) form.set("MessagingServiceSid", config.messagingServiceSid);
    form.set("Body", clip([message.title, ...message.lines].join("\n"), MAX_BODY));
    const basic = Buffer.from(`${config.apiKeySid ?? config.accountSid}:${config.authToken}`).toString("base64");
    const base = (ctx.endpoints.twilio ?? "https://api.twilio.com").replace(/\/+$/, "");
    const sent = await postJson(ctx, `${base}/2010-04-01/Accounts/${config.accountSid}/Messages.json`, form.toString(), {
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${basic}` },
      secrets: [config.authToken, basic],
    });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as TwilioAnswer | undefined;
    if (success(answer) && typeof reply?.sid === "string") return OK;
    if (typeof reply?.message !== "string") return failure(answer, `Twilio: ${describeAnswer(answer)}`);
    const code = typeof reply.code === "number" ? ` (${reply.code})` : "";
    return failure(answer, `Twilio: ${snippet(reply.message)}${code}`);
  },
};
