// The one colour scale of availability slots (a status page's days, the list's hours, the monitor page's hours and
// days): every screen picks a slot's colour here, so one colour means the same thing everywhere and the legends agree.

/** up: every check up; degraded: some down, at least half up; down: under half up; maintenance: only checks in maintenance; none: no checks. */
export type AvailabilityLevel = "up" | "degraded" | "down" | "maintenance" | "none";

/** Below this availability (%) a slot is "mostly down" (red); from it up to 100 % it is "some downtime" (amber). */
export const MOSTLY_DOWN_BELOW = 50;

/** The legend's order: best first, then the two without a verdict. */
export const AVAILABILITY_LEVELS: readonly AvailabilityLevel[] = ["up", "degraded", "down", "maintenance", "none"];

/**
 * A slot's level from its availability in % (null: no counted checks) and its checks made in maintenance (not
 * counted). A slot with counted checks is judged by them alone; without, maintenance checks make it "maintenance".
 */
export function availabilityLevel(availability: number | null, maintenance = 0): AvailabilityLevel {
  if (availability === null || !Number.isFinite(availability)) return maintenance > 0 ? "maintenance" : "none";
  if (availability >= 100) return "up";
  return availability >= MOSTLY_DOWN_BELOW ? "degraded" : "down";
}

/** The same from counts: checks (outside maintenance) and how many were up. */
export function countsLevel(checks: number, up: number, maintenance = 0): AvailabilityLevel {
  if (checks <= 0) return availabilityLevel(null, maintenance);
  return up >= checks ? "up" : availabilityLevel((up / checks) * 100, maintenance);
}

/** Each level's fill (and a darker one on hover, for slots that show facts on hover). */
export const LEVEL_COLOR: Record<AvailabilityLevel, string> = {
  up: "bg-emerald-500",
  degraded: "bg-amber-400",
  down: "bg-red-500",
  maintenance: "bg-sky-400",
  none: "bg-slate-200",
};

export const LEVEL_HOVER: Record<AvailabilityLevel, string> = {
  up: "hover:bg-emerald-600",
  degraded: "hover:bg-amber-500",
  down: "hover:bg-red-600",
  maintenance: "hover:bg-sky-500",
  none: "hover:bg-slate-300",
};
