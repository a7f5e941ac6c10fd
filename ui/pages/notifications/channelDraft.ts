// The channel form's model: which fields each type has, checking them as the server does (spec §5, §8), and turning
// the form into the API's config and back. Pure functions; the form is ChannelForm.tsx.
import type { ChannelInput, ChannelType, PublicChannel } from "../../api/notifications";
import { fitsUrlShape, isWebhookUrl, URL_SHAPES } from "../../../server/notifications/providers/webhook-url";

export const CONFIG_FIELDS = [
  "apiKey",
  "from",
  "to",
  "url",
  "botToken",
  "chatId",
  "secret",
  "host",
  "port",
  "security",
  "username",
  "password",
  "ignoreTls",
  "homeserver",
  "accessToken",
  "roomId",
  "server",
  "topic",
  "token",
  "priority",
  "tags",
  "userKey",
  "appToken",
  "sound",
  "deviceKey",
  "group",
  "level",
  "sendKey",
  "routingKey",
  "userIds",
  "role",
  "urls",
  "key",
  "tag",
  "number",
  "recipients",
  "region",
  "service",
  "accountSid",
  "authToken",
  "apiKeySid",
  "fromNumber",
  "messagingServiceSid",
  "toNumber",
  "conversationToken",
  "botSecret",
] as const;
export type ConfigField = (typeof CONFIG_FIELDS)[number];
/** The form's field names: the name plus the config fields. */
export type FormField = "name" | ConfigField;

export interface FieldSpec {
  name: ConfigField;
  /** Required by the server (an empty optional field is left out, or clears a stored secret on edit). */
  required: boolean;
  /** Returned masked by the server; the masked value sent back unchanged keeps the stored one. */
  secret: boolean;
  /**
   * Input type and autocomplete hints; "list" is comma-separated words, "checkbox" is "true" or "", "users" is
   * comma-separated user ids chosen from a list of people.
   */
  input: "text" | "url" | "email-list" | "secret" | "number" | "select" | "checkbox" | "list" | "users";
  /** A select's values (their labels are i18n keys `notifications.channelForm.options.<field>.<value>`). */
  options?: readonly string[];
}

const f = (name: ConfigField, required: boolean, secret: boolean, input: FieldSpec["input"], options?: readonly string[]): FieldSpec => ({ name, required, secret, input, ...(options ? { options } : {}) });

/** Each type's fields, in form order; `secret` mirrors the providers' `secretFields` (server/notifications/providers). */
export const CHANNEL_FIELDS: Record<ChannelType, FieldSpec[]> = {
  resend: [f("apiKey", true, true, "secret"), f("from", true, false, "text"), f("to", true, false, "email-list")],
  slack: [f("url", true, true, "url")],
  telegram: [f("botToken", true, true, "secret"), f("chatId", true, false, "text")],
  webhook: [f("url", true, true, "url"), f("secret", false, true, "secret")],
  dingtalk: [f("url", true, true, "url"), f("secret", false, true, "secret")],
  wecom: [f("url", true, true, "url")],
  feishu: [f("url", true, true, "url"), f("secret", false, true, "secret")],
  smtp: [
    f("host", true, false, "text"),
    f("security", true, false, "select", ["starttls", "tls", "none"]),
    f("port", false, false, "number"),
    f("username", false, false, "text"),
    f("password", false, true, "secret"),
    f("from", true, false, "text"),
    f("to", true, false, "email-list"),
    f("ignoreTls", false, false, "checkbox"),
  ],
  discord: [f("url", true, true, "url")],
  teams: [f("url", true, true, "url")],
  googlechat: [f("url", true, true, "url")],
  mattermost: [f("url", true, true, "url")],
  rocketchat: [f("url", true, true, "url")],
  matrix: [f("homeserver", true, false, "url"), f("accessToken", true, true, "secret"), f("roomId", true, false, "text")],
  pagerduty: [f("routingKey", true, true, "secret")],
  pushplus: [f("token", true, true, "secret"), f("topic", false, false, "text")],
  serverchan: [f("sendKey", true, true, "secret")],
  bark: [f("server", true, false, "url"), f("deviceKey", true, true, "secret"), f("group", false, false, "text"), f("level", false, false, "select", ["active", "timeSensitive", "passive", "critical"])],
  pushover: [f("userKey", true, true, "secret"), f("appToken", true, true, "secret"), f("priority", false, false, "number"), f("sound", false, false, "text")],
  gotify: [f("server", true, false, "url"), f("token", true, true, "secret"), f("priority", false, false, "number")],
  ntfy: [f("server", true, false, "url"), f("topic", true, false, "text"), f("token", false, true, "secret"), f("username", false, false, "text"), f("password", false, true, "secret"), f("priority", false, false, "number"), f("tags", false, false, "list")],
  // People or a role: one of the two (checked below, as the provider does).
  webpush: [f("userIds", false, false, "users"), f("role", false, false, "select", ["admin", "editor", "viewer"])],
  // Apprise: URLs or a key, one of the two (validateChannelForm asks for one; the server refuses both).
  apprise: [f("server", true, false, "url"), f("urls", false, true, "secret"), f("key", false, true, "secret"), f("tag", false, false, "text")],
  signal: [f("server", true, false, "url"), f("number", true, false, "text"), f("recipients", true, false, "list")],
  opsgenie: [f("apiKey", true, true, "secret"), f("region", true, false, "select", ["us", "eu"]), f("priority", false, false, "number")],
  homeassistant: [f("server", true, false, "url"), f("accessToken", true, true, "secret"), f("service", false, false, "text")],
  twilio: [
    f("accountSid", true, false, "text"),
    f("authToken", true, true, "secret"),
    f("apiKeySid", false, false, "text"),
    f("fromNumber", false, false, "text"),
    f("messagingServiceSid", false, false, "text"),
    f("toNumber", true, false, "text"),
  ],
  pushbullet: [f("accessToken", true, true, "secret")],
  nextcloudtalk: [f("server", true, false, "url"), f("conversationToken", true, false, "text"), f("botSecret", true, true, "secret")],
  grafanaoncall: [f("url", true, true, "url")],
  alertmanager: [f("url", true, true, "url"), f("token", false, true, "secret")],
  sendgrid: [f("apiKey", true, true, "secret"), f("from", true, false, "text"), f("to", true, false, "email-list")],
  brevo: [f("apiKey", true, true, "secret"), f("from", true, false, "text"), f("to", true, false, "email-list")],
};

/** The fields a form shows: a person's own push channel has none (it reaches that person's devices). */
export const fieldsOf = (type: ChannelType, personal: boolean): FieldSpec[] => (personal && type === "webpush" ? [] : CHANNEL_FIELDS[type]);

/** Example values for the placeholders: addresses and URL shapes, the same in every language. */
export const PLACEHOLDERS: Partial<Record<ChannelType, Partial<Record<ConfigField, string>>>> = {
  resend: { apiKey: "re_…", from: "Vigil <alerts@example.com>", to: "ops@example.com, oncall@example.com" },
  slack: { url: URL_SHAPES.slack.example },
  telegram: { botToken: "123456789:AAE…", chatId: "-1001234567890 / @my_channel" },
  webhook: { url: "https://example.com/hooks/vigil" },
  dingtalk: { url: URL_SHAPES.dingtalk.example, secret: "SEC…" },
  wecom: { url: URL_SHAPES.wecom.example },
  feishu: { url: URL_SHAPES.feishu.example },
  smtp: { host: "smtp.example.com", port: "587", username: "alerts@example.com", from: "Vigil <alerts@example.com>", to: "ops@example.com, oncall@example.com" },
  discord: { url: URL_SHAPES.discord.example },
  teams: { url: URL_SHAPES.teams.example },
  googlechat: { url: URL_SHAPES.googlechat.example },
  mattermost: { url: URL_SHAPES.mattermost.example },
  rocketchat: { url: URL_SHAPES.rocketchat.example },
  matrix: { homeserver: "https://matrix.example.org", roomId: "!abc123:example.org" },
  serverchan: { sendKey: "SCT… / sctp…t…" },
  bark: { server: "https://api.day.app" },
  gotify: { server: "https://gotify.example.com" },
  ntfy: { server: "https://ntfy.sh", topic: "vigil-alerts", tags: "server, vigil" },
  apprise: { server: "http://apprise:8000", urls: "tgram://bottoken/ChatID mailto://user:pass@example.com", key: "vigil", tag: "devops" },
  signal: { server: "http://signal-cli-rest-api:8080", number: "+4915112345678", recipients: "+4917612345678, group.…" },
  homeassistant: { server: "http://homeassistant.local:8123", service: "mobile_app_pixel_8" },
  twilio: { accountSid: "AC…", apiKeySid: "SK…", fromNumber: "+15005550006", messagingServiceSid: "MG…", toNumber: "+15551234567" },
  nextcloudtalk: { server: "https://cloud.example.com", conversationToken: "abc123de" },
  grafanaoncall: { url: URL_SHAPES.grafanaoncall.example },
  alertmanager: { url: "https://keep.example.com/alerts/event/alertmanager" },
  sendgrid: { apiKey: "SG.…", from: "Vigil <alerts@example.com>", to: "ops@example.com, oncall@example.com" },
  brevo: { apiKey: "xkeysib-…", from: "Vigil <alerts@example.com>", to: "ops@example.com, oncall@example.com" },
};

export type FieldValues = Record<ConfigField, string>;

export interface ChannelFormValues {
  name: string;
  type: ChannelType;
  enabled: boolean;
  fields: FieldValues;
}

export const emptyFields = (): FieldValues => Object.fromEntries(CONFIG_FIELDS.map((name) => [name, ""])) as FieldValues;

export function emptyChannelForm(type: ChannelType = "telegram"): ChannelFormValues {
  return { name: "", type, enabled: true, fields: emptyFields() };
}

/** The form's values of a stored channel's config (masked secrets included, as the server sent them). */
export function fieldsFromConfig(config: Record<string, unknown>): FieldValues {
  const out = emptyFields();
  for (const key of Object.keys(out) as ConfigField[]) {
    const value = config[key];
    if (typeof value === "string") out[key] = value;
    else if (typeof value === "number") out[key] = String(value);
    else if (typeof value === "boolean") out[key] = value ? "true" : "";
    else if (Array.isArray(value)) out[key] = value.filter((v) => typeof v === "string" || typeof v === "number").join(", ");
  }
  return out;
}

export function formFromChannel(channel: PublicChannel): ChannelFormValues {
  return { name: channel.name, type: channel.type, enabled: channel.enabled, fields: fieldsFromConfig(channel.config) };
}

// --- checks (the providers' rules: server/notifications/providers/{fields,resend,telegram,webhook-url}.ts) ----------

const ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;
const SENDER = /^(?:([^<>]*?)\s*<([^<>\s]+)>|([^<>\s]+))$/;
const BOT_TOKEN = /^\d+:[A-Za-z0-9_-]{35}$/;
const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z0-9_]{1,64})$/;
export const MAX_RECIPIENTS = 50;
/** A webpush channel names at most this many people (server/notifications/providers/webpush.ts). */
export const MAX_PUSH_USERS = 50;

/** The user ids a "users" field holds. */
export const splitUserIds = (value: string): number[] => [...new Set(value.split(/[\s,]+/).filter((v) => /^\d+$/.test(v)).map(Number))];
export const NAME_MAX = 100;

export const isEmail = (value: string) => value.length <= 254 && ADDRESS.test(value);

/** "ops@example.com" or "Name <ops@example.com>" (a display name is needed with the brackets). */
export function isSender(value: string): boolean {
  const match = SENDER.exec(value.trim());
  if (!match) return false;
  const address = match[2] ?? match[3] ?? "";
  if (match[2] !== undefined && !match[1]?.trim()) return false;
  return isEmail(address);
}

/** The recipients typed in one field, separated by commas, semicolons or spaces; duplicates dropped. */
export function splitRecipients(value: string): string[] {
  return [...new Set(value.split(/[\s,;]+/).filter(Boolean))];
}

const K = "notifications.channelForm.";
export type ChannelFormErrors = Partial<Record<FormField, string>>;

/**
 * The problems of the form, as i18n keys by field (empty when it can be sent). `original` is the stored channel's
 * values when editing: a secret field still holding its masked value is the stored one, valid as it is.
 */
export function validateChannelForm(v: ChannelFormValues, original?: ChannelFormValues, { personal = false } = {}): ChannelFormErrors {
  const errors: ChannelFormErrors = {};
  const name = v.name.trim();
  if (!name) errors.name = `${K}nameRequired`;
  else if (name.length > NAME_MAX) errors.name = `${K}nameTooLong`;

  for (const spec of fieldsOf(v.type, personal)) {
    const value = v.fields[spec.name].trim();
    if (spec.secret && isKeptSecret(spec.name, v, original)) continue;
    const problem = checkField(spec, value, v.type);
    if (problem) errors[spec.name] = `${K}${problem}`;
  }
  if (v.type === "webpush" && !personal) {
    const people = splitUserIds(v.fields.userIds).length;
    const role = v.fields.role.trim();
    if (people && role) errors.userIds = `${K}webpushBoth`;
    else if (!people && !role) errors.userIds = `${K}webpushRequired`;
    else if (people > MAX_PUSH_USERS) errors.userIds = `${K}webpushTooMany`;
  }
  // Apprise sends to the URLs given or to a configuration stored under a key: one of the two is needed.
  if (v.type === "apprise" && !v.fields.urls.trim() && !v.fields.key.trim()) errors.urls = `${K}appriseTargetRequired`;
  return errors;
}

function checkField(spec: FieldSpec, value: string, type: ChannelType): string | null {
  switch (spec.name) {
    case "apiKey":
      return value ? null : "apiKeyRequired";
    case "from":
      if (!value) return "senderRequired";
      return isSender(value) ? null : "senderInvalid";
    case "to": {
      const list = splitRecipients(value);
      if (list.length === 0) return "recipientRequired";
      return list.length <= MAX_RECIPIENTS && list.every(isEmail) ? null : "recipientInvalid";
    }
    case "url":
      if (!value) return "webhookUrlRequired";
      if (!isWebhookUrl(value)) return "webhookUrlInvalid";
      return fitsUrlShape(type, value) ? null : `webhookUrlShape.${type}`;
    case "botToken":
      if (!value) return "botTokenRequired";
      return BOT_TOKEN.test(value) ? null : "botTokenInvalid";
    case "chatId":
      if (!value) return "chatIdRequired";
      return CHAT_ID.test(value) ? null : "chatIdInvalid";
    case "secret":
      return null;
    default:
      // The other types' fields: present when required; the server checks the rest (its message shows on save).
      // A required select left untouched shows, and sends, its first option.
      if (spec.required && !value && spec.input !== "select") return "fieldRequired";
      if (spec.input === "number" && value && !/^-?\d+$/.test(value)) return "numberInvalid";
      if (spec.input === "url" && value && !isWebhookUrl(value)) return "urlInvalid";
      return null;
  }
}

/** A secret field left as the server sent it (masked) while editing a channel of the same type. */
export function isKeptSecret(field: ConfigField, v: ChannelFormValues, original?: ChannelFormValues): boolean {
  if (!original || original.type !== v.type) return false;
  const stored = original.fields[field];
  return stored !== "" && v.fields[field] === stored;
}

/**
 * The request body. Creating leaves empty optional fields out; editing sends them empty, which clears a stored
 * optional secret. A kept secret goes back masked, exactly as received (the server then keeps the stored value).
 */
export function toChannelInput(v: ChannelFormValues, mode: "create" | "edit", personal = false): ChannelInput {
  const config: Record<string, unknown> = {};
  for (const spec of fieldsOf(v.type, personal)) {
    const value = v.fields[spec.name].trim();
    if (spec.name === "to") config.to = splitRecipients(value);
    else if (spec.input === "checkbox") config[spec.name] = value === "true";
    else if (spec.input === "select" && spec.required) config[spec.name] = value || spec.options?.[0] || "";
    else if (spec.input === "number") {
      if (value) config[spec.name] = Number(value);
    } else if (spec.input === "list") config[spec.name] = value.split(/[\s,]+/).filter(Boolean);
    else if (spec.input === "users") config[spec.name] = splitUserIds(value);
    else if (value || spec.required || mode === "edit") config[spec.name] = value;
  }
  return { name: v.name.trim(), type: v.type, enabled: v.enabled, config };
}

/**
 * The form after choosing another type. Typed values stay (a URL fits several types), but masked secrets of the
 * stored channel are dropped when leaving its type: the server starts a new type's settings from nothing, and a mask
 * is no value. Coming back to the stored type brings its values back.
 */
export function changeType(v: ChannelFormValues, type: ChannelType, original?: ChannelFormValues): ChannelFormValues {
  if (original && type === original.type) return { ...v, type, fields: { ...original.fields } };
  const fields = { ...v.fields };
  if (original) {
    for (const spec of CHANNEL_FIELDS[original.type]) {
      if (spec.secret && original.fields[spec.name] !== "" && fields[spec.name] === original.fields[spec.name]) fields[spec.name] = "";
    }
  }
  return { ...v, type, fields };
}

/** Which field a server error code is about (to show it under that field too). */
export function fieldOfErrorCode(code: string | undefined): FormField | null {
  switch (code) {
    case "CHANNEL_NAME_REQUIRED":
      return "name";
    case "BOT_TOKEN_REQUIRED":
    case "BOT_TOKEN_INVALID":
      return "botToken";
    case "CHAT_ID_REQUIRED":
      return "chatId";
    case "API_KEY_REQUIRED":
      return "apiKey";
    case "SENDER_REQUIRED":
    case "SENDER_INVALID":
      return "from";
    case "RECIPIENT_REQUIRED":
    case "RECIPIENT_INVALID":
      return "to";
    case "WEBHOOK_URL_REQUIRED":
    case "WEBHOOK_URL_INVALID":
    case "WEBHOOK_URL_SHAPE":
      return "url";
    case "SMTP_HOST_REQUIRED":
    case "SMTP_HOST_INVALID":
      return "host";
    case "SMTP_PORT_INVALID":
      return "port";
    case "SMTP_USERNAME_REQUIRED":
      return "username";
    case "MATRIX_HOMESERVER_INVALID":
      return "homeserver";
    case "MATRIX_TOKEN_REQUIRED":
      return "accessToken";
    case "MATRIX_ROOM_INVALID":
      return "roomId";
    case "NTFY_SERVER_INVALID":
    case "GOTIFY_SERVER_INVALID":
    case "BARK_SERVER_INVALID":
      return "server";
    case "NTFY_TOPIC_INVALID":
      return "topic";
    case "GOTIFY_TOKEN_REQUIRED":
    case "PUSHPLUS_TOKEN_INVALID":
      return "token";
    case "PUSHOVER_USER_INVALID":
      return "userKey";
    case "PUSHOVER_TOKEN_INVALID":
      return "appToken";
    case "BARK_KEY_REQUIRED":
      return "deviceKey";
    case "SERVERCHAN_KEY_INVALID":
      return "sendKey";
    case "PAGERDUTY_KEY_INVALID":
      return "routingKey";
    case "WEBPUSH_RECIPIENTS":
      return "userIds";
    case "APPRISE_SERVER_INVALID":
    case "SIGNAL_SERVER_INVALID":
    case "HOMEASSISTANT_SERVER_INVALID":
    case "NEXTCLOUDTALK_SERVER_INVALID":
      return "server";
    case "APPRISE_TARGET_REQUIRED":
    case "APPRISE_URLS_INVALID":
      return "urls";
    case "APPRISE_KEY_INVALID":
      return "key";
    case "SIGNAL_NUMBER_INVALID":
      return "number";
    case "SIGNAL_RECIPIENTS_INVALID":
      return "recipients";
    case "OPSGENIE_KEY_INVALID":
      return "apiKey";
    case "HOMEASSISTANT_TOKEN_REQUIRED":
    case "PUSHBULLET_TOKEN_REQUIRED":
      return "accessToken";
    case "HOMEASSISTANT_SERVICE_INVALID":
      return "service";
    case "TWILIO_SID_INVALID":
      return "accountSid";
    case "TWILIO_TOKEN_REQUIRED":
      return "authToken";
    case "TWILIO_FROM_INVALID":
      return "fromNumber";
    case "TWILIO_TO_INVALID":
      return "toNumber";
    case "NEXTCLOUDTALK_TOKEN_INVALID":
      return "conversationToken";
    case "NEXTCLOUDTALK_SECRET_REQUIRED":
      return "botSecret";
    default:
      return null;
  }
}
