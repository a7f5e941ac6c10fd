// Kuma notification configs (the JSON in notification.config: `type` and the provider's own field names) turned into
// Vigil channel configs. Only the mapping lives here; the provider's own validate() judges the result. Notes say what
// of a Kuma setting does not come across, never a value (configs hold secrets).
import type { ChannelType } from "../../notifications/public";
import { note } from "./notes";
import type { Note } from "./section";
import { bool, int, str } from "./section-helpers";

type Config = Record<string, unknown>;
export interface Mapped {
  type: ChannelType;
  config: Config;
  notes: Note[];
  /** What the user must add in Vigil when the config cannot pass Vigil's checks (a plan note beside the check's). */
  missing?: Note;
}

const s = (c: Config, k: string) => str(c[k]).trim();
type Dropped = "dkim" | "mailHeaders" | "channel" | "username" | "icon" | "button" | "template" | "prefix" | "thread" | "messageThread" | "silent" | "protect" | "calls" | "device" | "title" | "lifetime" | "recoverySound" | "mentioning" | "sound" | "severity";

/** A note for each Kuma field that is set (not blank, false or 0) and has no place in Vigil (what it is, by code). */
function dropped(c: Config, notes: Note[], fields: Record<string, Dropped>) {
  for (const [field, what] of Object.entries(fields)) {
    const v = c[field];
    const set = Array.isArray(v) ? v.length > 0 : typeof v === "string" ? v.trim() !== "" : v !== undefined && v !== null && v !== false && v !== 0;
    if (set) notes.push(note(`notification.dropped.${what}`));
  }
}

/** "\"Uptime Kuma\" <a@b>" → "Uptime Kuma <a@b>": Vigil takes the name unquoted. */
const unquoteSender = (from: string) => from.replace(/^\s*"([^"]*)"\s*</, "$1 <");
const addresses = (v: string) => v.split(/[\s,;]+/).filter(Boolean);

/**
 * Kuma's Apprise URL when it is one apprise:// or apprises:// URL without credentials: Apprise's own way to reach an
 * Apprise API server (https://appriseit.com/services/apprise_api/), so it says which server and key to use.
 */
function appriseApi(url: string): { server: string; key: string; tag?: string } | null {
  const m = /^(apprises?):\/\/([^/?#@\s]+)((?:\/[^/?#\s]+)*)\/([A-Za-z0-9_-]{1,128})\/?(?:\?([^#\s]*))?$/.exec(url);
  if (!m) return null;
  const [, scheme, host, path, key, query] = m;
  const tag = new URLSearchParams(query ?? "").get("tags")?.trim();
  return { server: `${scheme === "apprises" ? "https" : "http"}://${host}${path}`, key: key!, ...(tag ? { tag } : {}) };
}

const MAPPERS: Record<string, (c: Config, notes: Note[]) => Omit<Mapped, "notes">> = {
  smtp(c, notes) {
    const to = addresses(s(c, "smtpTo"));
    const cc = addresses(s(c, "smtpCC"));
    if (cc.length) notes.push(note("notification.cc"));
    if (s(c, "smtpBCC")) notes.push(note("notification.bcc"));
    if (bool(c.htmlBody) || s(c, "customSubject") || s(c, "customBody")) notes.push(note("notification.customBody"));
    dropped(c, notes, { smtpDkimDomain: "dkim", smtpAdditionalHeaders: "mailHeaders" });
    const username = s(c, "smtpUsername");
    return {
      type: "smtp",
      config: {
        host: s(c, "smtpHost"),
        port: int(c.smtpPort) ?? undefined,
        // Kuma without "secure" upgrades when the server offers STARTTLS (unless told not to): Vigil's "none" does too.
        security: bool(c.smtpSecure) ? "tls" : "none",
        ...(username ? { username, password: str(c.smtpPassword) } : {}),
        from: unquoteSender(s(c, "smtpFrom")),
        to: [...to, ...cc],
        ...(bool(c.smtpIgnoreTLSError) ? { ignoreTls: true } : {}),
      },
    };
  },
  slack(c, notes) {
    dropped(c, notes, { slackchannel: "channel", slackusername: "username", slackiconemo: "icon", slackbutton: "button", slackUseTemplate: "template" });
    return { type: "slack", config: { url: s(c, "slackwebhookURL") } };
  },
  discord(c, notes) {
    dropped(c, notes, { discordUsername: "username", discordPrefixMessage: "prefix", threadId: "thread", discordUseMessageTemplate: "template" });
    return { type: "discord", config: { url: s(c, "discordWebhookUrl") } };
  },
  telegram(c, notes) {
    const server = s(c, "telegramServerUrl");
    if (server && server.replace(/\/+$/, "") !== "https://api.telegram.org") notes.push(note("notification.telegramServer"));
    dropped(c, notes, { telegramMessageThreadID: "messageThread", telegramSendSilently: "silent", telegramProtectContent: "protect", telegramUseTemplate: "template" });
    return { type: "telegram", config: { botToken: s(c, "telegramBotToken"), chatId: s(c, "telegramChatID") } };
  },
  webhook(c, notes) {
    const headers = s(c, "webhookAdditionalHeaders");
    if (headers) {
      let names: string[] = [];
      try {
        names = Object.keys(JSON.parse(headers) as object);
      } catch {}
      notes.push(names.length ? note("notification.webhookHeadersNamed", { names: names.join(", ") }) : note("notification.webhookHeaders"));
    }
    const contentType = s(c, "webhookContentType");
    if (contentType && contentType !== "json") notes.push(note(contentType === "form-data" ? "notification.webhookFormData" : "notification.webhookCustomBody"));
    const method = s(c, "httpMethod").toLowerCase();
    if (method && method !== "post") notes.push(note("notification.webhookMethod", { method: method.toUpperCase() }));
    return { type: "webhook", config: { url: s(c, "webhookURL") } };
  },
  teams(c) {
    return { type: "teams", config: { url: s(c, "webhookUrl") } };
  },
  ntfy(c, notes) {
    const method = s(c, "ntfyAuthenticationMethod");
    const token = s(c, "ntfyaccesstoken");
    const username = s(c, "ntfyusername");
    const auth = method === "accessToken" || (!method && token)
      ? { token }
      : method === "usernamePassword" || (!method && username)
        ? { username, password: str(c.ntfypassword) }
        : {};
    if (c.ntfyPriorityDown !== undefined && int(c.ntfyPriorityDown) !== int(c.ntfyPriority)) notes.push(note("notification.ntfyPriorityDown"));
    dropped(c, notes, { ntfyIcon: "icon", ntfyCall: "calls", ntfyUseTemplate: "template" });
    const priority = int(c.ntfyPriority);
    return { type: "ntfy", config: { server: s(c, "ntfyserverurl"), topic: s(c, "ntfytopic"), ...auth, ...(priority !== null ? { priority } : {}) } };
  },
  gotify(c) {
    const priority = int(c.gotifyPriority);
    return { type: "gotify", config: { server: s(c, "gotifyserverurl"), token: s(c, "gotifyapplicationToken"), ...(priority !== null ? { priority } : {}) } };
  },
  pushover(c, notes) {
    dropped(c, notes, { pushoverdevice: "device", pushovertitle: "title", pushoverttl: "lifetime", pushoversounds_up: "recoverySound" });
    const priority = int(c.pushoverpriority);
    const sound = s(c, "pushoversounds");
    return { type: "pushover", config: { userKey: s(c, "pushoveruserkey"), appToken: s(c, "pushoverapptoken"), ...(priority !== null ? { priority } : {}), ...(sound ? { sound } : {}) } };
  },
  dingding(c, notes) {
    const mentioning = s(c, "mentioning");
    if (mentioning && mentioning !== "nobody") notes.push(note("notification.mentioning"));
    const secret = s(c, "secretKey");
    return { type: "dingtalk", config: { url: s(c, "webHookUrl"), ...(secret ? { secret } : {}) } };
  },
  feishu(c) {
    return { type: "feishu", config: { url: s(c, "feishuWebHookUrl") } };
  },
  wecom(c, notes) {
    dropped(c, notes, { weComMentionedMobileList: "mentioning" });
    const key = s(c, "weComBotKey");
    return { type: "wecom", config: { url: key ? `https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=${encodeURIComponent(key)}` : "" } };
  },
  serverchan(c) {
    return { type: "serverchan", config: { sendKey: s(c, "serverChanSendKey") } };
  },
  bark(c, notes) {
    // Kuma keeps the server and the device key in one URL: https://api.day.app/<device key>.
    const endpoint = s(c, "barkEndpoint").replace(/\/+$/, "");
    const cut = endpoint.lastIndexOf("/");
    const server = cut > "https://".length ? endpoint.slice(0, cut) : endpoint;
    const deviceKey = cut > "https://".length ? endpoint.slice(cut + 1) : "";
    dropped(c, notes, { barkSound: "sound" });
    const group = s(c, "barkGroup");
    return { type: "bark", config: { server, deviceKey, ...(group ? { group } : {}) } };
  },
  pagerduty(c, notes) {
    const url = s(c, "pagerdutyIntegrationUrl");
    if (url && !/^https:\/\/events\.pagerduty\.com\/v2\/enqueue\/?$/.test(url)) notes.push(note("notification.pagerdutyUrl"));
    dropped(c, notes, { pagerdutyPriority: "severity" });
    const resolve = s(c, "pagerdutyAutoResolve");
    if (resolve && resolve !== "resolve") notes.push(note("notification.pagerdutyResolve"));
    return { type: "pagerduty", config: { routingKey: s(c, "pagerdutyIntegrationKey") } };
  },
  matrix(c, notes) {
    dropped(c, notes, { matrixUseTemplate: "template" });
    return { type: "matrix", config: { homeserver: s(c, "homeserverUrl"), accessToken: s(c, "accessToken"), roomId: s(c, "internalRoomId") } };
  },
  mattermost(c, notes) {
    dropped(c, notes, { mattermostchannel: "channel", mattermostusername: "username", mattermosticonemo: "icon", mattermosticonurl: "icon" });
    return { type: "mattermost", config: { url: s(c, "mattermostWebhookUrl") } };
  },
  "rocket.chat"(c, notes) {
    dropped(c, notes, { rocketchannel: "channel", rocketusername: "username", rocketiconemo: "icon", rocketbutton: "button" });
    return { type: "rocketchat", config: { url: s(c, "rocketwebhookURL") } };
  },
  googlechat(c, notes) {
    dropped(c, notes, { googleChatUseTemplate: "template" });
    return { type: "googlechat", config: { url: s(c, "googleChatWebhookURL") } };
  },
  pushplus(c) {
    return { type: "pushplus", config: { token: s(c, "pushPlusSendKey") } };
  },
  apprise(c, notes) {
    dropped(c, notes, { title: "title" });
    const urls = s(c, "appriseURL");
    const api = appriseApi(urls);
    if (api) return { type: "apprise", config: api };
    // Kuma ran the apprise command on its own host; Vigil needs an Apprise API server, which Kuma's config cannot name.
    return { type: "apprise", config: { server: "", urls }, missing: note("notification.appriseServer") };
  },
  signal(c, notes) {
    // Kuma posts to the full URL it was given (…/v2/send); Vigil takes the REST API's address and adds /v2/send.
    const url = s(c, "signalURL").replace(/\/+$/, "");
    const server = url.replace(/\/v[12]\/send$/, "");
    if (server === url) notes.push(note("notification.signalUrl"));
    dropped(c, notes, { signalUseTemplate: "template" });
    return { type: "signal", config: { server, number: s(c, "signalNumber"), recipients: addresses(s(c, "signalRecipients")) } };
  },
  opsgenie(c, notes) {
    notes.push(note("notification.opsgenieAlias"));
    const priority = int(c.opsgeniePriority);
    return { type: "opsgenie", config: { apiKey: s(c, "opsgenieApiKey"), region: s(c, "opsgenieRegion") || "us", ...(priority !== null ? { priority } : {}) } };
  },
  homeassistant(c) {
    const service = s(c, "notificationService");
    return { type: "homeassistant", config: { server: s(c, "homeAssistantUrl"), accessToken: s(c, "longLivedAccessToken"), ...(service ? { service } : {}) } };
  },
  twilio(c) {
    const optional = { apiKeySid: s(c, "twilioApiKey"), fromNumber: s(c, "twilioFromNumber"), messagingServiceSid: s(c, "twilioMessagingServiceSID") };
    const given = Object.fromEntries(Object.entries(optional).filter(([, v]) => v));
    return { type: "twilio", config: { accountSid: s(c, "twilioAccountSID"), authToken: s(c, "twilioAuthToken"), ...given, toNumber: s(c, "twilioToNumber") } };
  },
  pushbullet(c) {
    return { type: "pushbullet", config: { accessToken: s(c, "pushbulletAccessToken") } };
  },
  nextcloudtalk(c, notes) {
    dropped(c, notes, { sendSilentUp: "silent", sendSilentDown: "silent" });
    return { type: "nextcloudtalk", config: { server: s(c, "host"), conversationToken: s(c, "conversationToken"), botSecret: str(c.botSecret) } };
  },
  grafanaoncall(c) {
    return { type: "grafanaoncall", config: { url: s(c, "GrafanaOncallURL") } };
  },
  sendgrid(c, notes) {
    return { type: "sendgrid", config: mailApi(c, notes, "sendgrid", "") };
  },
  brevo(c, notes) {
    return { type: "brevo", config: mailApi(c, notes, "brevo", s(c, "brevoFromName")) };
  },
};

/** SendGrid's and Brevo's fields in Kuma: `<prefix>ApiKey`, `FromEmail`, `ToEmail`, `CcEmail`, `BccEmail`, `Subject`. */
function mailApi(c: Config, notes: Note[], prefix: string, fromName: string): Config {
  const cc = addresses(s(c, `${prefix}CcEmail`));
  if (cc.length) notes.push(note("notification.cc"));
  if (s(c, `${prefix}BccEmail`)) notes.push(note("notification.bcc"));
  if (s(c, `${prefix}Subject`)) notes.push(note("notification.customBody"));
  const email = s(c, `${prefix}FromEmail`);
  return { apiKey: s(c, `${prefix}ApiKey`), from: fromName && email ? `${fromName} <${email}>` : email, to: [...addresses(s(c, `${prefix}ToEmail`)), ...cc] };
}

/** The Vigil channel for a Kuma config, or null when Vigil has no such provider. Kuma spells types in mixed case. */
export function mapKumaNotification(config: Config): Mapped | null {
  const mapper = MAPPERS[str(config.type).toLowerCase()];
  if (!mapper) return null;
  const notes: Note[] = [];
  const mapped = mapper(config, notes);
  return { ...mapped, notes };
}
