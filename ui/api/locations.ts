import type { LocationRange, LocationSeries, LocationSettings, MonitorLocations } from "../../server/probes/public";
import { api } from "./client";

export { LOCATION_RANGES, LOCATION_RULES } from "../../server/probes/public";
export type { LocationRange, LocationResult, LocationRule, LocationSeries, LocationSettings, LocationStatus, MonitorLocation, MonitorLocations } from "../../server/probes/public";

// Where a monitor is checked from ("locations"): the Vigil server, agents, or both, and the rule that turns their
// results into the monitor's verdict (server/probes/service.ts).

export const getLocations = (monitorId: number) => api.get<MonitorLocations>(`/api/monitors/${monitorId}/locations`);

/** 400 NO_LOCATION, UNKNOWN_AGENT, LOCATION_COUNT; 409 PUSH_NO_LOCATIONS; 403 for viewers. */
export const saveLocations = (monitorId: number, input: LocationSettings) => api.put<MonitorLocations>(`/api/monitors/${monitorId}/locations`, input);

export const getLocationSeries = (monitorId: number, range: LocationRange) =>
  api.get<{ locations: LocationSeries[] }>(`/api/monitors/${monitorId}/locations/series?range=${encodeURIComponent(range)}`);
