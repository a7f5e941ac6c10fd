import { api } from "./client";

// Where a monitor is checked from ("locations"): the Vigil server, agents, or both, and the rule that turns their
// results into the monitor's verdict (server/probes/service.ts).

/** When the monitor is down: a majority of the locations that reported, any of them, all of them, or at least `count`. */
export type LocationRule = "majority" | "any" | "all" | "count";

export const LOCATION_RULES: readonly LocationRule[] = ["majority", "any", "all", "count"];

/** A location's latest state: "no data" when it has no recent result or is an offline agent (never "down"). */
export type LocationStatus = "up" | "down" | "no data";

export interface LocationResult {
  time: number;
  up: boolean;
  responseTime: number | null;
  httpStatus: number | null;
  error: string | null;
}

export interface MonitorLocation {
  /** null: the Vigil server itself. */
  agentId: number | null;
  /** The agent's name; "Vigil" for the server (the UI names it in the reader's language). */
  name: string;
  online: boolean;
  status: LocationStatus;
  latest: LocationResult | null;
}

export interface LocationSettings {
  checkFromServer: boolean;
  agentIds: number[];
  rule: LocationRule;
  count?: number | null;
}

export interface MonitorLocations extends LocationSettings {
  count: number | null;
  locations: MonitorLocation[];
}

export type LocationRange = "1h" | "24h" | "7d";

export const LOCATION_RANGES: readonly LocationRange[] = ["1h", "24h", "7d"];

export interface LocationPoint {
  time: number;
  up: boolean;
  responseTime: number | null;
}

export interface LocationSeries {
  agentId: number | null;
  name: string;
  points: LocationPoint[];
}

export const getLocations = (monitorId: number) => api.get<MonitorLocations>(`/api/monitors/${monitorId}/locations`);

/** 400 NO_LOCATION, UNKNOWN_AGENT, LOCATION_COUNT; 409 PUSH_NO_LOCATIONS; 403 for viewers. */
export const saveLocations = (monitorId: number, input: LocationSettings) => api.put<MonitorLocations>(`/api/monitors/${monitorId}/locations`, input);

export const getLocationSeries = (monitorId: number, range: LocationRange) =>
  api.get<{ locations: LocationSeries[] }>(`/api/monitors/${monitorId}/locations/series?range=${encodeURIComponent(range)}`);
