import type {
  CheckResult,
  MonitorHistory,
  MonitorName,
  MonitorInput,
  MonitorSeries,
  PublicMonitor,
  RecentCheck,
  SeriesRange,
} from "../../server/monitors/public";
import type { MonitorTypeInfo } from "../../server/monitors/type-catalog";
import type { ListPage } from "../../server/monitors/list-page";
import { listViewSearch, type ListView } from "../../server/monitors/list-view";
import { api, fetchFile, type ExportFormat } from "./client";

// The wire types are the server's: the UI imports them from here, never writes them again.
export type * from "../../server/monitors/public";
/** The check types and DNS record types (in the order the form offers them), the limits and defaults of the API. */
export { MONITOR_TYPES, MONITOR_METHODS, GROUP_RULES, DNS_RECORD_TYPES, PING_FAMILIES, LIMITS, DEFAULTS, RESERVED_HEADERS, SERIES_RANGES, defaultRetries, uniqueTags } from "../../server/monitors/public";

/** How ping monitors reach their hosts on this server (null: they cannot, the form warns). */
/** Every monitor type: the later types' settings schema, whether agents run it, why this server cannot (GET /api/monitors/types). */
export const getMonitorTypes = () => api.get<{ types: MonitorTypeInfo[] }>("/api/monitors/types");

/** Sets a manual monitor up or down. */
export const setManualState = (id: number, status: "up" | "down", message: string | null) =>
  api.post<{ result: CheckResult }>(`/api/monitors/${id}/manual`, { status, message });

export const getPingSupport = () => api.get<{ method: "socket" | "program" | null }>("/api/monitors/ping-support");

// No screen reads GET /api/monitors (every monitor with its figures): it stays for scripts and API clients.

/** Every monitor's id, name, type, target, group, tags and active flag: for pickers (a tenth of GET /api/monitors' bytes). */
export const listMonitorNames = () => api.get<{ monitors: MonitorName[] }>("/api/monitors/names");

/** One window of the monitor list as the screen shows it (the server searches, filters, sorts, counts). */
export function getMonitorPage(view: ListView, collapsed: readonly number[], offset: number, limit: number) {
  const params = new URLSearchParams(listViewSearch(view));
  params.set("offset", String(offset));
  params.set("limit", String(limit));
  if (collapsed.length > 0) params.set("collapsed", collapsed.join(","));
  return api.get<ListPage>(`/api/monitors/page?${params}`);
}

export const getMonitor = (id: number) => api.get<{ monitor: PublicMonitor }>(`/api/monitors/${id}`);
/** A group's direct members, by name. */
export const listMembers = (id: number) => api.get<{ monitors: PublicMonitor[] }>(`/api/monitors/${id}/members`);

export const createMonitor = (input: MonitorInput) => api.post<{ monitor: PublicMonitor }>("/api/monitors", input);

/** Any subset of the fields; `{ active: false }` pauses. */
export const updateMonitor = (id: number, input: Partial<MonitorInput>) => api.put<{ monitor: PublicMonitor }>(`/api/monitors/${id}`, input);

export const deleteMonitor = (id: number) => api.delete<object>(`/api/monitors/${id}`);

/** A push monitor's new secret push URL token; the old URL stops working at once. */
export const regeneratePushToken = (id: number) => api.post<{ monitor: PublicMonitor }>(`/api/monitors/${id}/push-token`);

/** Runs a check now and answers with its result and the monitor's state after it. */
export const checkMonitor = (id: number) => api.post<{ result: CheckResult; monitor: PublicMonitor }>(`/api/monitors/${id}/check`);

export const getMonitorHistory = (id: number) => api.get<{ history: MonitorHistory }>(`/api/monitors/${id}/history`);

export const getMonitorSeries = (id: number, range: SeriesRange) =>
  api.get<{ series: MonitorSeries }>(`/api/monitors/${id}/series?range=${encodeURIComponent(range)}`);

/** The last 50 checks of one monitor, oldest first. */
export const getRecentChecks = (id: number) => api.get<{ checks: RecentCheck[] }>(`/api/monitors/${id}/checks`);

/** A browser monitor's failure screenshots, latest first: each check's start time and error. */
export const getScreenshots = (id: number) => api.get<{ screenshots: { time: number; error: string | null }[] }>(`/api/monitors/${id}/screenshots`);

/** One failure screenshot's PNG (fetched with the session's token: an <img src> could not send it). */
export const getScreenshot = async (id: number, time: number) => (await fetchFile(`/api/monitors/${id}/screenshots/${time}`, "screenshot.png")).blob;

/** GET /api/monitors/:id/export: raw checks with from <= time < to (Unix ms), as a CSV or NDJSON file. */
export const exportChecks = (id: number, format: ExportFormat, from: number, to: number) =>
  fetchFile(`/api/monitors/${id}/export?format=${format}&from=${from}&to=${to}`, `monitor-${id}-checks.${format}`);

/** The last 50 checks of every monitor, by id (the list's strips). */
export const getAllRecentChecks = () => api.get<{ checks: Record<string, RecentCheck[]> }>("/api/monitors/checks/recent");

/** The latest checks of these monitors only (the list asks for the rows in view). */
export const getRecentChecksOf = (ids: readonly number[]) =>
  api.get<{ checks: Record<string, RecentCheck[]> }>(`/api/monitors/checks/recent?ids=${ids.join(",")}`);

export type { ErrorBudget, BudgetState } from "../../server/objectives/budget";
/** A monitor's or group's error budget now (null without an objective). */
export const getBudget = (id: number) => api.get<{ budget: import("../../server/objectives/budget").ErrorBudget | null }>(`/api/monitors/${id}/budget`);
