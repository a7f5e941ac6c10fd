import type { PushDeviceView, PushRecipient, PushSubscriptionInput } from "../../server/push/public";
import { api } from "./client";

// The wire types are the server's: the UI imports them from here, never writes them again.
export type * from "../../server/push/public";

/** The server's VAPID public key (base64url): what PushManager.subscribe takes as applicationServerKey. */
export const getPushKey = () => api.get<{ publicKey: string }>("/api/webpush/key");

export const listDevices = () => api.get<{ devices: PushDeviceView[] }>("/api/webpush/subscriptions");

/** 201 for a new device, 200 when the browser was subscribed before (updated). */
export const subscribeDevice = (input: PushSubscriptionInput) => api.post<{ device: PushDeviceView }>("/api/webpush/subscriptions", input);

export const removeDevice = (id: number) => api.delete<object>(`/api/webpush/subscriptions/${id}`);

export const testDevice = (id: number) => api.post<object>(`/api/webpush/subscriptions/${id}/test`);

/** Who a webpush channel can name (editors and admins). */
export const listRecipients = () => api.get<{ recipients: PushRecipient[] }>("/api/webpush/recipients");
