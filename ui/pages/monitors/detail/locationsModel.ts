// The pure side of a monitor's locations card: statuses as shown, the form's checks, and the per-location chart's
// lines on one time axis.
import type { LocationRange, LocationRule, LocationSeries, LocationStatus, MonitorLocation } from "../../../api/locations";
import { chartColor, type ChartSeries } from "../../../components/charts/chartData";
import { locationBucketMs } from "../../../../server/probes/public";

export { LOCATION_RANGE_MS as RANGE_MS, locationBucketMs as bucketMs } from "../../../../server/probes/public";

/** A location's line breaks where it has no point for this long: two and a half of its slots (interval or bucket). */
export const gapMs = (range: LocationRange, intervalMinutes: number) => 2.5 * Math.max(intervalMinutes * 60_000, locationBucketMs(range));

/** A row's key and test id: "server" for the Vigil server, else the agent's id. */
export const locationKey = (l: { agentId: number | null }) => (l.agentId === null ? "server" : String(l.agentId));

/** What a row's badge says: an agent that is offline has no data, it is never "down" for being away. */
export function shownStatus(l: MonitorLocation): LocationStatus {
  return l.agentId !== null && !l.online ? "no data" : l.status;
}

/**
 * The locations that see the monitor down among those that reported ("down from 1 of 3: tokyo"), whatever the
 * verdict; null when none does.
 */
export function downFrom(locations: readonly MonitorLocation[], nameOf: (l: MonitorLocation) => string): { down: number; total: number; names: string } | null {
  const reported = locations.filter((l) => shownStatus(l) !== "no data");
  const down = reported.filter((l) => shownStatus(l) === "down");
  return down.length ? { down: down.length, total: reported.length, names: down.map(nameOf).join(", ") } : null;
}

/** How many locations a choice makes. */
export const locationTotal = (fromServer: boolean, agentIds: readonly number[]) => agentIds.length + (fromServer ? 1 : 0);

/** What the server would refuse (the same codes, errors.<CODE>), or null. `count` is the form's text. */
export function locationProblem(fromServer: boolean, agentIds: readonly number[], rule: LocationRule, count: string): "NO_LOCATION" | "LOCATION_COUNT" | null {
  const total = locationTotal(fromServer, agentIds);
  if (total === 0) return "NO_LOCATION";
  if (rule !== "count") return null;
  const n = Number(count);
  return count.trim() !== "" && Number.isInteger(n) && n >= 1 && n <= total ? null : "LOCATION_COUNT";
}

/**
 * The chart's times and one line per location. Locations check at their own moments, so each line has values at
 * only some of the times: those are sparse (joined across), and a real pause (longer than `gap`, or a check with no
 * response time) breaks the line with a null.
 */
export function locationLines(series: readonly LocationSeries[], gap: number, nameOf: (s: LocationSeries) => string): { times: number[]; lines: ChartSeries[] } {
  const perLine = series.map((s) => {
    const values = new Map<number, number | null>();
    let previous: number | null = null;
    for (const p of [...s.points].sort((a, b) => a.time - b.time)) {
      if (previous !== null && p.time - previous > gap) values.set(Math.round((previous + p.time) / 2), null);
      values.set(p.time, p.responseTime);
      previous = p.time;
    }
    return values;
  });
  const times = [...new Set(perLine.flatMap((v) => [...v.keys()]))].sort((a, b) => a - b);
  const lines = series.map(
    (s, i): ChartSeries => ({
      label: nameOf(s),
      color: chartColor(i),
      sparse: true,
      // `undefined`: this location has no point at that time (another one has).
      values: times.map((t) => (perLine[i].has(t) ? perLine[i].get(t)! : undefined)),
    }),
  );
  return { times, lines };
}
