// The wire types of the notifications API (the UI imports them through ui/api/notifications.ts, never writes them
import type { ChannelTemplates } from "./templates";
import type { CheckErrorCode } from "../monitors/check-errors";
import type { MonitorType } from "../monitors/public";
// again). Routes: server/notifications/routes.ts; docs/notifications.md.

export const CHANNEL_TYPES = [
  "resend",
  "slack",
  "telegram",
  "webhook",
  "dingtalk",
  "wecom",
  "feishu",
  "smtp",
  "discord",
  "teams",
  "googlechat",
  "mattermost",
  "rocketchat",
  "matrix",
  "ntfy",
  "gotify",
  "pushover",
  "bark",
  "serverchan",
  "pushplus",
  "pagerduty",
  "webpush",
  "apprise",
  "signal",
  "opsgenie",
  "homeassistant",
  "twilio",
  "pushbullet",
  "nextcloudtalk",
  "grafanaoncall",
  "alertmanager",
  "sendgrid",
  "brevo",
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/**
 * Each type's settings. The chat providers' URLs must have their provider's path (and key parameter) on any host, so a
 * relay may stand in front (providers/webhook-url.ts; else 400 WEBHOOK_URL_SHAPE). Secret fields (API keys, bot tokens, signing secrets, webhook URLs that carry a key) are
 * stored as given and returned masked (see `secretFields` of each provider); sending the masked value back, or
 * leaving the field out of an update, keeps the stored one.
 */
export interface ChannelConfigs {
  /** Resend's email API. `from`: "ops@example.com" or "Vigil <ops@example.com>"; `to`: one or more addresses. */
  resend: { apiKey: string; from: string; to: string[] };
  /** Slack incoming webhook (https://hooks.slack.com/services/…): the URL is the secret. */
  slack: { url: string };
  /** Telegram Bot API sendMessage. Bot token `<digits>:<35 chars>`; chat id numeric or @channel. */
  telegram: { botToken: string; chatId: string };
  /**
   * Any HTTP endpoint: the event as JSON; with a secret, `X-Vigil-Signature: sha256=<hex HMAC-SHA256 of the body>`.
   * The URL is returned with its credentials, query and fragment masked (`https://••••@host/path?••••`).
   */
  webhook: { url: string; secret?: string };
  /** DingTalk custom robot (…/robot/send?access_token=…), optional "加签" secret. */
  dingtalk: { url: string; secret?: string };
  /** WeCom group robot (…/cgi-bin/webhook/send?key=…). */
  wecom: { url: string };
  /** Feishu / Lark custom bot (…/open-apis/bot/v2/hook/…), optional signing secret. */
  feishu: { url: string; secret?: string };
  /**
   * Your own mail server. `security`: "none" (plain, may upgrade opportunistically), "starttls" (must upgrade) or
   * "tls" (implicit TLS, usually port 465). `username`/`password` optional (no AUTH without them). `ignoreTls`: accept
   * invalid certificates. An HTML and a plain-text part.
   */
  smtp: { host: string; port: number; security: "none" | "starttls" | "tls"; username?: string; password?: string; from: string; to: string[]; ignoreTls?: boolean };
  /** Discord webhook (…/api/webhooks/{id}/{token}): an embed. */
  discord: { url: string };
  /** Microsoft Teams through a Workflows (Power Automate) "post to a channel when a webhook request is received" URL: an Adaptive Card. */
  teams: { url: string };
  /** Google Chat space webhook (…/v1/spaces/{space}/messages?key=…&token=…): a card. */
  googlechat: { url: string };
  /** Mattermost incoming webhook (…/hooks/{key}). */
  mattermost: { url: string };
  /** Rocket.Chat incoming webhook (…/hooks/{id}/{token}). */
  rocketchat: { url: string };
  /** Matrix client-server API: the homeserver's URL, an access token, and a room id (!room:server). */
  matrix: { homeserver: string; accessToken: string; roomId: string };
  /** ntfy: a server (https://ntfy.sh or your own) and a topic; optional access token or user/password, priority 1-5, tags. */
  ntfy: { server: string; topic: string; token?: string; username?: string; password?: string; priority?: number; tags?: string[] };
  /** Gotify: the server's URL and an application token; priority 0-10. */
  gotify: { server: string; token: string; priority?: number };
  /** Pushover: user (or group) key and application token; priority -2…2, optional sound. */
  pushover: { userKey: string; appToken: string; priority?: number; sound?: string };
  /** Bark (iOS): a server (https://api.day.app or your own) and a device key; optional group and level. */
  bark: { server: string; deviceKey: string; group?: string; level?: "active" | "timeSensitive" | "passive" | "critical" };
  /** ServerChan (Server酱): a SendKey — SCT… for Turbo (sctapi.ftqq.com), sctp{uid}t… for SC3 ({uid}.push.ft07.com). */
  serverchan: { sendKey: string };
  /** PushPlus (推送加): a token, optional topic (group push). */
  pushplus: { token: string; topic?: string };
  /** PagerDuty Events API v2: a routing (integration) key; down/offline trigger, recovery resolves (same dedup key). */
  pagerduty: { routingKey: string };
  /**
   * Push to devices (Web Push, server/push/): every device these people turned push on for on /profile — named
   * (`userIds`, 1-50), or everyone with a `role` — one of the two.
   */
  webpush: { userIds?: number[]; role?: "admin" | "editor" | "viewer" };
  /**
   * Apprise through an Apprise API server: either Apprise URLs (one or more, separated by spaces, as Apprise takes
   * them) or the key of a configuration stored on that server, optionally only its URLs with a tag.
   */
  apprise: { server: string; urls?: string; key?: string; tag?: string };
  /** Signal through signal-cli-rest-api: its URL, the registered sender number (+…), recipients (numbers or group ids). */
  signal: { server: string; number: string; recipients: string[] };
  /** Opsgenie Alert API v2: an API integration's key, the account's region, priority 1-5 (P1-P5) for down alerts. */
  opsgenie: { apiKey: string; region: "us" | "eu"; priority?: number };
  /** Home Assistant: its URL, a long-lived access token, the notify service (default "notify"). */
  homeassistant: { server: string; accessToken: string; service?: string };
  /**
   * Twilio SMS: the account SID, its auth token (or an API key's SID and secret), a sender number, alphanumeric
   * sender ID or Messaging Service SID, and the number to text.
   */
  twilio: { accountSid: string; authToken: string; apiKeySid?: string; fromNumber?: string; messagingServiceSid?: string; toNumber: string };
  /** Pushbullet: an access token; a note to every device of the account. */
  pushbullet: { accessToken: string };
  /** Nextcloud Talk through a bot: the server, the conversation's token, the bot's shared secret. */
  nextcloudtalk: { server: string; conversationToken: string; botSecret: string };
  /** Grafana OnCall (IRM) "Formatted webhook" integration URL: alerts grouped per target, resolved on recovery. */
  grafanaoncall: { url: string };
  /** Any receiver of Alertmanager's webhook (payload version 4), optional bearer token. */
  alertmanager: { url: string; token?: string };
  /** SendGrid's Mail Send API. */
  sendgrid: { apiKey: string; from: string; to: string[] };
  /** Brevo's transactional e-mail API. */
  brevo: { apiKey: string; from: string; to: string[] };
}

export type ChannelConfig = ChannelConfigs[ChannelType];

/** How a channel's deliveries have been going: a channel whose last 3 sends failed is "failing". */
export interface ChannelHealth {
  failing: boolean;
  consecutiveFailures: number;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  lastError: string | null;
}

/**
 * Quiet hours (quiet-hours.ts): from `from` to `to` (HH:MM wall time in `timeZone`; `to` not after `from` wraps past
 * midnight, the same time is the whole day) on `days` (ISO weekdays the period starts on, 1 Monday … 7 Sunday; absent:
 * every day), low-importance alerts wait in the outbox and go out when the period ends. Down alerts (and offline,
 * recoveries, reminders) pass, unless `holdDown`.
 */
export interface QuietHours {
  from: string;
  to: string;
  timeZone: string;
  days?: number[];
  holdDown: boolean;
}

/** A channel as the API returns it: secrets masked. */
export interface PublicChannel {
  id: number;
  name: string;
  type: ChannelType;
  enabled: boolean;
  config: Record<string, unknown>;
  /** Message templates by event kind (none: the built-in messages). */
  templates: ChannelTemplates;
  /** null: none (every alert goes out when it comes). */
  quietHours: QuietHours | null;
  createdAt: number;
  updatedAt: number;
  health: ChannelHealth;
}

/** POST/PUT body of a channel. On PUT every field is optional; `config` fields left out or masked keep their value. */
export interface ChannelInput {
  name: string;
  type: ChannelType;
  enabled?: boolean;
  config: Record<string, unknown>;
  templates?: ChannelTemplates;
  /** null turns them off; absent on PUT keeps them. */
  quietHours?: QuietHours | null;
}

export interface MonitorNotificationSettings {
  enabled: boolean;
  channelIds: number[];
  /** budget: error budget alerts of monitors with an objective (burning too fast, spent). */
  events: { down: boolean; recovery: boolean; budget: boolean };
  /** Minutes between reminders while a monitor stays down; 0 = none (default). */
  reminderMinutes: number;
}

export interface AgentNotificationSettings {
  enabled: boolean;
  channelIds: number[];
  events: { offline: boolean; online: boolean; cpu: boolean; memory: boolean; disk: boolean; container: boolean };
  /** Percent, 1-100; default 90 each. */
  thresholds: { cpu: number; memory: number; disk: number };
  containers: ContainerAlertSettings;
}

/**
 * Which of an agent's containers are watched, and what counts as trouble: a watched container that stops (exited,
 * dead, created, or gone from the list), whose health check fails, or that restarts more than `restarts` times within
 * `restartMinutes` (0: not watched for restarts). Edge-triggered like the usage alerts.
 */
export interface ContainerAlertSettings {
  /** Container names; "*" watches every container the agent lists. Empty (default): none. */
  watch: string[];
  restarts: number;
  restartMinutes: number;
}

export type NotificationLanguage = "zh-CN" | "en-US";

/** GET/PUT /api/notifications/settings. `language` and `timeZone` are how messages are written (instance-wide). */
export interface NotificationSettings {
  monitor: MonitorNotificationSettings;
  agent: AgentNotificationSettings;
  language: NotificationLanguage;
  /** IANA zone for the times in messages, e.g. "Asia/Shanghai"; default the server's. */
  timeZone: string;
}

/** GET /api/notifications/settings/monitors/{id} (agents alike): the settings in force and whether they are the target's own. */
export interface TargetSettingsReply<S> {
  settings: S;
  override: boolean;
}

export type NotificationEventKind = "down" | "recovery" | "reminder" | "offline" | "online" | "cpu" | "memory" | "disk" | "container" | "budget" | "test";

/** One thing that happened, as notifications see it (and as the webhook provider sends it). */
export interface NotificationEvent {
  kind: NotificationEventKind;
  target: { type: "monitor" | "agent" | "channel"; id: number; name: string };
  /** Unix ms */
  time: number;
  /** What the message states: URL, HTTP status, error, response time; hostname, usage and threshold, mount point. */
  facts: {
    /** The monitor's target: its URL, host:port, "name record"; empty for push monitors. */
    url?: string;
    /** The same target line, under the name templates use for every type (monitor alerts). */
    target?: string;
    /** The stable code of the failed check's error (AUTH_FAILED, QUERY_NO_ROWS, STATUS…; check-errors.ts). */
    errorCode?: CheckErrorCode;
    /** The monitor's check type (absent for agents). */
    checkType?: MonitorType;
    port?: number;
    /** ping: echo requests per check. */
    packets?: number;
    /** dns: the record type looked up, and the resolver asked. */
    record?: string;
    resolver?: string;
    keyword?: string;
    jsonPath?: string;
    /** push: when the last call came (null: never). */
    lastPushAt?: number | null;
    httpStatus?: number | null;
    error?: string | null;
    responseTime?: number | null;
    hostname?: string;
    usage?: number;
    threshold?: number;
    mountPoint?: string;
    /** container alerts: which container, its image, what is wrong with it, its state, restarts in the window. */
    container?: string;
    image?: string;
    containerProblem?: "stopped" | "unhealthy" | "restarts";
    containerState?: string;
    restarts?: number;
    windowMinutes?: number;
    /** agent offline: its last report, and the address that report came from (null: unknown). */
    lastSeenAt?: number | null;
    address?: string | null;
    /** error budget alerts (server/objectives/): the objective (percent over days), the budget left (percent), the
     * burn rate that set it off over its window (hours) and the rate that alerts, and the budget's state. */
    objective?: number;
    objectiveDays?: number;
    budgetRemaining?: number;
    burnRate?: number;
    burnHours?: number;
    burnThreshold?: number;
    budgetState?: "burning-slow" | "burning-fast" | "exhausted";
    /** How long it was down / offline before coming back, in seconds. */
    downtimeSeconds?: number;
    /** A page by an escalation policy (server/escalation/): its step (from 1) of how many, and which repeat of the last (0: the first). */
    escalationStep?: number;
    escalationSteps?: number;
    escalationRepeat?: number;
    /** The people that step paged (named by it, or on call in its schedules then), by username. */
    escalationPeople?: string[];
    /**
     * A signed link acknowledging this alert's open problem (`<public URL>/ack/<token>`, good for 7 days; its page asks
     * before it acts): on alerts and reminders of an open problem, when the instance knows its public address.
     */
    ackUrl?: string;
  };
}

export type DeliveryStatus = "pending" | "sent" | "failed";

/** One message to one channel (the outbox row): GET /api/notifications/deliveries. */
export interface Delivery {
  id: number;
  channelId: number;
  channelName: string;
  createdAt: number;
  /** The events it carries: one, or several when a storm was grouped. */
  events: { kind: NotificationEventKind; targetType: "monitor" | "agent" | "channel"; targetId: number; targetName: string }[];
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number | null;
  sentAt: number | null;
  /** The provider's last error, if any. */
  error: string | null;
}
