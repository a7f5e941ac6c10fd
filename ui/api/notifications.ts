import type {
  AgentNotificationSettings,
  ChannelInput,
  ChannelType,
  Delivery,
  MonitorNotificationSettings,
  NotificationSettings,
  PublicChannel,
  NotificationLanguage,
  TargetSettingsReply,
} from "../../server/notifications/public";
import type { TemplateKind, TemplateProblem } from "../../server/notifications/templates";
import { CHANNEL_TYPES } from "../../server/notifications/public";
import { api } from "./client";

// The wire types are the server's: the UI imports them from here, never writes them again.
export type * from "../../server/notifications/public";
export type { ChannelTemplates, MessageTemplate, TemplateKind, TemplateProblem } from "../../server/notifications/templates";
export { SAMPLE_CHECK_TYPES, TEMPLATE_KINDS, TEMPLATE_VARIABLES, type SampleCheckType } from "../../server/notifications/template-vars";
import type { SampleCheckType } from "../../server/notifications/template-vars";

/** The channel types in the order the form offers them: the server's. */
export const CHANNEL_TYPE_LIST: readonly ChannelType[] = CHANNEL_TYPES;

/** How many log lines a channel's delivery log shows. */
export const DELIVERY_LOG_LIMIT = 20;

// --- channels ------------------------------------------------------------------------------------------------------

export const listChannels = () => api.get<{ channels: PublicChannel[] }>("/api/notifications/channels");

export const createChannel = (input: ChannelInput) => api.post<{ channel: PublicChannel }>("/api/notifications/channels", input);

/** Any subset of the fields; secret config fields left out or sent back masked keep their stored value. */
export const updateChannel = (id: number, input: Partial<ChannelInput>) => api.put<{ channel: PublicChannel }>(`/api/notifications/channels/${id}`, input);

export const deleteChannel = (id: number) => api.delete<object>(`/api/notifications/channels/${id}`);

/** One part of a template preview: its text, or what is wrong with it (line and column when known). */
export interface PreviewPart {
  text: string | null;
  problem: TemplateProblem | null;
}

/** Renders a template against a sample event of the kind, in a language. */
export const previewTemplate = (input: { type: ChannelType; kind: TemplateKind; checkType?: SampleCheckType; title: string; body: string; lang: NotificationLanguage }) =>
  api.post<{ title: PreviewPart; body: PreviewPart }>("/api/notifications/templates/preview", input);

/** Sends a test message now: resolves when the provider accepted it, else throws (502 PROVIDER_ERROR, its error). */
export const testChannel = (id: number) => api.post<object>(`/api/notifications/channels/${id}/test`);

/** The delivery log, newest first. */
export const listDeliveries = (channelId: number, limit = DELIVERY_LOG_LIMIT) =>
  api.get<{ deliveries: Delivery[] }>(`/api/notifications/deliveries?channelId=${channelId}&limit=${limit}`);

// --- settings ------------------------------------------------------------------------------------------------------

export const getSettings = () => api.get<{ settings: NotificationSettings }>("/api/notifications/settings");

export const saveSettings = (settings: NotificationSettings) => api.put<{ settings: NotificationSettings }>("/api/notifications/settings", settings);

/** Where a monitor's or an agent's own settings live. */
export type TargetKind = "monitors" | "agents";

/** The settings part each kind of target has. */
export type TargetSettings<K extends TargetKind> = K extends "monitors" ? MonitorNotificationSettings : AgentNotificationSettings;

/** The settings in force for one target, and whether they are its own (`override`) or the global ones. */
export const getTargetSettings = <K extends TargetKind>(kind: K, id: number) =>
  api.get<TargetSettingsReply<TargetSettings<K>>>(`/api/notifications/settings/${kind}/${id}`);

/** Gives the target its own settings. */
export const saveTargetSettings = <K extends TargetKind>(kind: K, id: number, settings: TargetSettings<K>) =>
  api.put<TargetSettingsReply<TargetSettings<K>>>(`/api/notifications/settings/${kind}/${id}`, settings);

/** Back to the global settings: answers with them (`override: false`). */
export const clearTargetSettings = <K extends TargetKind>(kind: K, id: number) =>
  api.delete<TargetSettingsReply<TargetSettings<K>>>(`/api/notifications/settings/${kind}/${id}`);

/** The ids of the monitors and agents that have their own settings. */
export const listOverrides = () => api.get<{ monitors: number[]; agents: number[] }>("/api/notifications/settings/overrides");
