// What GET /api/monitors/types tells clients (the form, scripts): every type, the later types' settings schema, whether
// agents can run it, whether Vigil checks it on a clock, and why this server cannot run it where it cannot.
import { MONITOR_TYPES, UNSCHEDULED_TYPES, isSettingsType, runsOnAgents, type MonitorType } from "./public";
import { SETTINGS_TYPES } from "./types/settings-registry";

export interface MonitorTypeInfo {
  type: MonitorType;
  /** The settings object's JSON Schema (later types); null for the first five, whose fields are the monitor's own. */
  settings: unknown | null;
  runsOnAgents: boolean;
  /** false: Vigil does not check it on a clock (a group follows its members, a manual monitor is set). */
  scheduled: boolean;
  /** Why this server cannot run it now (an i18n key under monitors.unavailable), or null. */
  unavailable: string | null;
}

export function monitorTypes(): MonitorTypeInfo[] {
  return MONITOR_TYPES.map((type) => {
    const module = isSettingsType(type) ? SETTINGS_TYPES[type] : undefined;
    return {
      type,
      settings: module ? JSON.parse(JSON.stringify(module.schema)) : null,
      runsOnAgents: runsOnAgents(type),
      scheduled: !UNSCHEDULED_TYPES.includes(type),
      unavailable: module?.unavailable?.() ?? null,
    };
  });
}
