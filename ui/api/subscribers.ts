import type { SubscriberList } from "../../server/subscribers/public";
import { api } from "./client";

// Status-page subscriptions: the public calls (subscribe, confirm, unsubscribe) and the admin's list.
export type * from "../../server/subscribers/public";
export { EMAIL_MAX } from "../../server/subscribers/limits";

const page = (slug: string) => `/api/status/pages/${encodeURIComponent(slug)}`;

/** Whether a page offers e-mail subscriptions (public, and the instance can send mail). */
export const subscriptionsAvailable = (slug: string) => api.get<{ available: boolean }>(`${page(slug)}/subscriptions`);

/** Starts a subscription: the server mails a confirmation link (the same answer whoever the address is). */
export const subscribe = (slug: string, email: string) => api.post<object>(`${page(slug)}/subscribe`, { email });

/** What a mailed link is for: its page, and the address masked. Changes nothing (the page's button acts). */
export interface SubscriptionLinkInfo {
  page: { title: string; slug: string; path: string };
  email: string;
}

export const subscriptionLink = (mode: "confirm" | "unsubscribe", token: string) =>
  api.get<SubscriptionLinkInfo>(`/api/status/subscriptions/${mode}?token=${encodeURIComponent(token)}`);

export const confirmSubscription = (token: string) =>
  api.post<{ page: { title: string; slug: string; path: string } }>("/api/status/subscriptions/confirm", { token });

export const unsubscribe = (token: string) => api.post<object>("/api/status/subscriptions/unsubscribe", { token });

export const listSubscribers = (pageId: number) => api.get<SubscriberList>(`/api/status-pages/${pageId}/subscribers`);

export const removeSubscriber = (pageId: number, id: number) => api.delete<object>(`/api/status-pages/${pageId}/subscribers/${id}`);
