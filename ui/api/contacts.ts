import type { ChannelInput, PublicChannel, QuietHours } from "../../server/notifications/public";
import { api } from "./client";

// The signed-in person's own contact channels and quiet hours (/api/me: server/contacts/routes.ts). The channels are
// notification channels (the same wire types), seen and changed by their owner only.

export const listMyChannels = () => api.get<{ channels: PublicChannel[] }>("/api/me/channels");

export const createMyChannel = (input: ChannelInput) => api.post<{ channel: PublicChannel }>("/api/me/channels", input);

/** Any subset of the fields; secret config fields left out or sent back masked keep their stored value. */
export const updateMyChannel = (id: number, input: Partial<ChannelInput>) => api.put<{ channel: PublicChannel }>(`/api/me/channels/${id}`, input);

export const deleteMyChannel = (id: number) => api.delete<object>(`/api/me/channels/${id}`);

/** Sends a test message now: resolves when the provider accepted it, else throws (502 PROVIDER_ERROR, its error). */
export const testMyChannel = (id: number) => api.post<object>(`/api/me/channels/${id}/test`);

export const getMyQuietHours = () => api.get<{ quietHours: QuietHours | null }>("/api/me/quiet-hours");

/** null turns them off. */
export const saveMyQuietHours = (quietHours: QuietHours | null) => api.put<{ quietHours: QuietHours | null }>("/api/me/quiet-hours", { quietHours });
