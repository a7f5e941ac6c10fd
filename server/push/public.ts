// The wire types of the Web Push API (/api/webpush; routes.ts). The UI imports them through ui/api/push.ts.
import type { Role } from "../users/public";

/** A subscription's endpoint: push services' are 100-500 characters. */
export const PUSH_ENDPOINT_MAX = 2048;
export const PUSH_LABEL_MAX = 100;
/** Devices one person may have subscribed at once (subscribing a known endpoint again does not count). */
export const PUSH_DEVICES_PER_USER_MAX = 20;

/** One of the caller's devices (GET /api/webpush/subscriptions). */
export interface PushDeviceView {
  id: number;
  label: string;
  /** The browser's push endpoint (the caller's own), so the page can tell which device it runs on. */
  endpoint: string;
  /** The push service's host, e.g. fcm.googleapis.com. */
  service: string;
  createdAt: number;
  lastSuccessAt: number | null;
  /** The push service's answer to the last failed send. */
  lastError: string | null;
}

/** POST /api/webpush/subscriptions: the browser's PushSubscription.toJSON(), and a name for the device. */
export interface PushSubscriptionInput {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
  /** e.g. "Chrome on Android"; default: the request's User-Agent, shortened. */
  label?: string;
}

/** Who a webpush channel can name (GET /api/webpush/recipients): people and how many devices each has on. */
export interface PushRecipient {
  id: number;
  username: string;
  role: Role;
  devices: number;
}
