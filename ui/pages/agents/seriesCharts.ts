import type { AgentSeries, Sample } from "../../api/agents";
import { chartColor, type ChartSeries } from "../../components/charts/chartData";

// Turns the columnar series of GET /api/agents/:id/series into the detail page's charts.

export interface ChartLabels {
  cpu: string;
  memory: string;
  /** "{{label}} (max)" */
  max: (label: string) => string;
  load1: string;
  load5: string;
  load15: string;
  /** "eth0 ↓" */
  rx: (iface: string) => string;
  tx: (iface: string) => string;
  disk: string;
}

export interface DetailCharts {
  times: number[];
  cpu: ChartSeries[];
  memory: ChartSeries[];
  load: ChartSeries[];
  network: ChartSeries[];
  /** One chart per mount point, in the order of the newest sample, then any others the series has. */
  disks: { mountPoint: string; series: ChartSeries[] }[];
}

const col = (map: Record<string, (number | null)[]>, key: string): (number | null)[] => map[key] ?? [];

/** Keys of `map` with a prefix, without it ("disk:/data" → "/data"). */
function suffixes(map: Record<string, unknown>, prefix: string): string[] {
  return Object.keys(map)
    .filter((k) => k.startsWith(prefix))
    .map((k) => k.slice(prefix.length));
}

/** Puts the names the newest sample lists first (in its order), then the rest alphabetically. */
function ordered(names: string[], preferred: string[]): string[] {
  const set = new Set(names);
  const first = preferred.filter((n) => set.has(n));
  const rest = names.filter((n) => !first.includes(n)).sort();
  return [...first, ...rest];
}

/**
 * The charts for one range. The average is the line; where buckets are longer than one sample (every range but 1 h)
 * the maximum of CPU, memory and each disk is drawn as a faint line behind it.
 */
export function buildDetailCharts(series: AgentSeries, latest: Sample | null, labels: ChartLabels): DetailCharts {
  const withMax = series.step > 0;
  const line = (label: string, key: string, index: number, fill = false): ChartSeries[] => {
    const avg: ChartSeries = { label, values: col(series.avg, key), color: chartColor(index), fill };
    if (!withMax) return [avg];
    return [avg, { label: labels.max(label), values: col(series.max, key), color: chartColor(index), faint: true, dash: [4, 4] }];
  };

  // Every disk of the newest sample gets a chart, even before the range holds data for it (then "No data yet").
  const current = latest?.disks.map((d) => d.mountPoint) ?? [];
  const mounts = ordered([...new Set([...suffixes(series.avg, "disk:"), ...current])], current);
  const ifaces = ordered(
    [...new Set([...suffixes(series.avg, "rx:"), ...suffixes(series.avg, "tx:")])],
    latest?.network.map((n) => n.name) ?? [],
  );

  return {
    times: series.times,
    cpu: line(labels.cpu, "cpu", 0, true),
    memory: line(labels.memory, "memory", 1, true),
    load: [
      { label: labels.load1, values: col(series.avg, "load1"), color: chartColor(0) },
      { label: labels.load5, values: col(series.avg, "load5"), color: chartColor(3) },
      { label: labels.load15, values: col(series.avg, "load15"), color: chartColor(5) },
    ],
    network: ifaces.flatMap((name, i) => [
      { label: labels.rx(name), values: col(series.avg, `rx:${name}`), color: chartColor(i * 2 + 1) },
      { label: labels.tx(name), values: col(series.avg, `tx:${name}`), color: chartColor(i * 2), dash: [5, 3] },
    ]),
    disks: mounts.map((mountPoint) => ({ mountPoint, series: line(labels.disk, `disk:${mountPoint}`, 2, true) })),
  };
}
