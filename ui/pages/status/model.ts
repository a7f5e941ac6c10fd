import type { ParseKeys } from "i18next";
import {
  ANNOUNCEMENT_MAX,
  STATUS_DESCRIPTION_MAX,
  STATUS_ITEMS_MAX,
  STATUS_TITLE_MAX,
  type AnnouncementSeverity,
  type StatusDay,
  type StatusMonitor,
  type StatusPageConfig,
  type StatusPageConfigInput,
} from "../../api/status";

// What the status screens compute, apart from React: the configuration form's draft and checks, list moves, and the
// public page's row comparison (bar colours: ../../components/availability).

// --- the configuration form ----------------------------------------------------------------------------------------

export interface ConfigDraft {
  title: string;
  description: string;
  monitorIds: number[];
  agentIds: number[];
  severity: AnnouncementSeverity;
  /** An empty text means no announcement. */
  announcement: string;
}

export function configDraft(config: StatusPageConfig): ConfigDraft {
  return {
    title: config.title,
    description: config.description,
    monitorIds: [...config.monitorIds],
    agentIds: [...config.agentIds],
    severity: config.announcement?.severity ?? "info",
    announcement: config.announcement?.text ?? "",
  };
}

/** The PUT body: texts trimmed (as the server stores them), no announcement when its text is blank. */
export function configInput(draft: ConfigDraft): StatusPageConfigInput {
  const text = draft.announcement.trim();
  return {
    title: draft.title.trim(),
    description: draft.description.trim(),
    monitorIds: draft.monitorIds,
    agentIds: draft.agentIds,
    announcement: text ? { severity: draft.severity, text } : null,
  };
}

export type ConfigErrors = Partial<Record<"title" | "description" | "announcement" | "monitorIds" | "agentIds", ParseKeys>>;

/** The server's limits, checked before sending (the keys take `{{max}}`). */
export function validateConfig(draft: ConfigDraft): ConfigErrors {
  const input = configInput(draft);
  const errors: ConfigErrors = {};
  if (input.title.length > STATUS_TITLE_MAX) errors.title = "statusConfig.errors.titleTooLong";
  if (input.description.length > STATUS_DESCRIPTION_MAX) errors.description = "statusConfig.errors.descriptionTooLong";
  if ((input.announcement?.text.length ?? 0) > ANNOUNCEMENT_MAX) errors.announcement = "statusConfig.errors.announcementTooLong";
  if (input.monitorIds.length > STATUS_ITEMS_MAX) errors.monitorIds = "statusConfig.errors.tooMany";
  if (input.agentIds.length > STATUS_ITEMS_MAX) errors.agentIds = "statusConfig.errors.tooMany";
  return errors;
}

/** Whether two drafts would save the same configuration. */
export function sameConfig(a: ConfigDraft, b: ConfigDraft): boolean {
  return JSON.stringify(configInput(a)) === JSON.stringify(configInput(b));
}

// --- the public page -----------------------------------------------------------------------------------------------

/**
 * Whether a monitor's row would look the same (the page re-renders only rows that changed when a new view arrives:
 * with hundreds of monitors, 90 bars each, that keeps a refresh cheap).
 */
export function sameMonitor(a: StatusMonitor, b: StatusMonitor): boolean {
  if (a === b) return true;
  if (a.id !== b.id || a.name !== b.name || a.status !== b.status) return false;
  if (a.uptime.day !== b.uptime.day || a.uptime.month !== b.uptime.month || a.uptime.quarter !== b.uptime.quarter) return false;
  if (!sameDays(a.days, b.days)) return false;
  // A group's members are few: compared whole.
  if ((a.members || b.members) && JSON.stringify(a.members) !== JSON.stringify(b.members)) return false;
  const [ra, rb] = [a.responseTimes, b.responseTimes];
  return sameNumbers(ra.times, rb.times) && sameNumbers(ra.values, rb.values);
}

function sameDays(a: StatusDay[], b: StatusDay[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]];
    if (x.date !== y.date || x.checks !== y.checks || x.maintenance !== y.maintenance || x.availability !== y.availability || x.avgResponseTime !== y.avgResponseTime) return false;
  }
  return true;
}

function sameNumbers(a: readonly (number | null)[], b: readonly (number | null)[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The first `max` names and how many are left over ("A, B and 3 more"). */
export function firstNames(items: readonly { name: string }[], max = 5): { names: string[]; more: number } {
  return { names: items.slice(0, max).map((x) => x.name), more: Math.max(0, items.length - max) };
}
