// Types and constants of checks from agents ("locations") the UI imports too: no imports here.

/** When the monitor is down: a majority of the locations that reported, any of them, all of them, or at least `count`. */
export const LOCATION_RULES = ["majority", "any", "all", "count"] as const;
export type LocationRule = (typeof LOCATION_RULES)[number];

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
  /** The agent's location name, else its name; "Vigil" for the server (the UI names it in the reader's language). */
  name: string;
  online: boolean;
  status: LocationStatus;
  latest: LocationResult | null;
}

/** PUT /api/monitors/{id}/locations. */
export interface LocationSettings {
  checkFromServer: boolean;
  agentIds: number[];
  rule: LocationRule;
  count?: number | null;
}

/** GET (and PUT) /api/monitors/{id}/locations. */
export interface MonitorLocations extends LocationSettings {
  count: number | null;
  locations: MonitorLocation[];
}

export const LOCATION_RANGE_MS = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000 } as const;
export type LocationRange = keyof typeof LOCATION_RANGE_MS;
export const LOCATION_RANGES = Object.keys(LOCATION_RANGE_MS) as LocationRange[];

/** The buckets of a range's series: about 500 a location, at least a minute. */
export const locationBucketMs = (range: LocationRange) => Math.max(60_000, Math.ceil(LOCATION_RANGE_MS[range] / 500 / 60_000) * 60_000);

export interface LocationPoint {
  time: number;
  up: boolean;
  responseTime: number | null;
}

/** GET /api/monitors/{id}/locations/series: one line per location. */
export interface LocationSeries {
  agentId: number | null;
  name: string;
  points: LocationPoint[];
}
