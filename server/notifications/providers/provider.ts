// The one small interface every channel type implements (one file per type beside this one, each with its test).
import type { ChannelConfigs, ChannelType, NotificationEvent, NotificationLanguage } from "../public";

/**
 * A message ready to send, already in the instance's language: providers only lay it out for their API (text,
 * markdown, blocks, card, email) and never translate.
 */
export interface NotificationMessage {
  lang: NotificationLanguage;
  /** Drives colour / emoji: critical (down, offline, over threshold), ok (recovered, online), info (test, reminder). */
  severity: "critical" | "ok" | "info";
  /** One line: "🔴 Monitor down: Shop API" or "23 monitors down". */
  title: string;
  /** Plain-text fact lines, each "Label: value" ("URL: https://…", "Time: 2026-11-23 11:02:03 (UTC+08:00)"). */
  lines: string[];
  /** The events it carries (one, or many for a grouped storm message): the webhook sends them as JSON. */
  events: NotificationEvent[];
  /** The webhook channel's templated request body (valid JSON), replacing its built-in one. */
  body?: string;
}

/** What a provider needs besides the config: injected so tests point at local fakes. */
export interface SendContext {
  fetch: typeof fetch;
  /** Per request; the provider passes `AbortSignal.timeout(timeoutMs)`. */
  timeoutMs: number;
  /**
   * Base URLs of the fixed API hosts (configurable: `--telegram-api`, `--resend-api`); the other fixed-host providers
   * (pushover, serverchan, pushplus, pagerduty, opsgenie, twilio, pushbullet, sendgrid, brevo) read theirs here when
   * set (tests point them at local fakes).
   */
  endpoints: { telegram: string; resend: string } & Partial<Record<string, string>>;
  /**
   * Why a host may not be reached (the --block-private-targets policy), or null: for providers that do not go through
   * `fetch` (SMTP). Absent: any host.
   */
  hostProblem?: (host: string) => Promise<string | null>;
  /** Unix ms; for signatures (DingTalk, Feishu, webhook timestamps). */
  now(): number;
  /** Web Push (server/push/): the devices people subscribed and the server's VAPID keys. Absent: no webpush sends. */
  push?: PushContext;
}

/** A browser's push subscription, as the webpush provider sends to it. */
export interface PushDevice {
  id: number;
  userId: number;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** What the webpush provider needs of server/push/ (injected, so the provider never reads the database). */
export interface PushContext {
  /** The subscribed devices of these people, or of everyone with this role (active accounts only). */
  devices(to: { userIds?: number[]; role?: "admin" | "editor" | "viewer" }): Promise<PushDevice[]>;
  /** The server's VAPID key pair (base64url) and contact (an https: or mailto: URL). */
  vapid(): Promise<{ subject: string; publicKey: string; privateKey: string }>;
  /** What came of a send to one device: delivered, failed (the error is kept on it), or gone (it is deleted). */
  record(deviceId: number, outcome: { ok: true } | { ok: false; error: string; gone?: boolean }): Promise<void>;
}

/**
 * The provider's verdict, read from its own answer (Telegram `ok`, DingTalk/WeCom `errcode`, Feishu `code`, Resend's
 * error JSON), never from the HTTP status alone. `retryable`: a network error, timeout, 429 or 5xx; a 4xx or an
 * application error (bad token, chat not found) is final. `retryAfterMs` from `Retry-After` or Telegram's
 * `parameters.retry_after`.
 */
export type SendResult = { ok: true } | { ok: false; error: string; retryable: boolean; retryAfterMs?: number };

/** A field error: the code (UI translates it) and the spec §8 message. */
export interface ConfigError {
  code: string;
  message: string;
}

export interface Provider<T extends ChannelType = ChannelType> {
  type: T;
  /**
   * Checks and normalises a config (trims, splits `to` given as "a@x, b@y"); the first problem as a ConfigError.
   * Called with the merged config on update (secrets already restored), so it sees complete values.
   */
  validate(config: Record<string, unknown>): { ok: true; config: ChannelConfigs[T] } | { ok: false; error: ConfigError };
  /**
   * Where the config sends: a URL, or SMTP's host. Refused on save when the address policy forbids it as written
   * (store.ts), and checked again, resolved, at every send. Absent for the fixed API hosts (the operator's flags).
   */
  target?: (config: ChannelConfigs[T]) => { url: string } | { host: string };
  /** Fields returned masked and kept when an update leaves them out or sends the mask back. */
  secretFields: readonly (keyof ChannelConfigs[T] & string)[];
  /** How a secret field is masked when not by `mask` (mask.ts): e.g. a URL whose path may stay visible. */
  masks?: Partial<Record<keyof ChannelConfigs[T] & string, (value: string) => string>>;
  /** The provider's documented rate limit for one channel (messages per minute): the dispatcher stays under it. */
  perMinute: number;
  send(config: ChannelConfigs[T], message: NotificationMessage, ctx: SendContext): Promise<SendResult>;
}
