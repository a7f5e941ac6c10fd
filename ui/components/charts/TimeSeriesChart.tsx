import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import uPlot from "uplot"; // its stylesheet is imported by ui/app.css (see there why)
import { axisSize, hasData, isolatedIndexes, legendFormat, tickFormat, toAlignedData, yRange, type ChartSeries } from "./chartData";

export type { ChartSeries } from "./chartData";
export { BINARY_INCRS, CHART_COLORS, chartColor } from "./chartData";

/** The visible values of series `si` that have no neighbour, or null (uPlot then draws none). */
function isolatedPoints(u: uPlot, si: number): number[] | null {
  const [i0, i1] = u.series[si].idxs ?? [0, u.data[si].length - 1];
  const idxs = isolatedIndexes(u.data[si] as (number | null)[], i0, i1);
  return idxs.length ? idxs : null;
}

export interface TimeSeriesChartProps {
  /** Unix ms, ascending. */
  times: number[];
  series: ChartSeries[];
  /** Formats y values in the legend, and on the axis unless `formatAxis` is given (default: the number, 2 decimals). */
  formatValue?: (value: number) => string;
  formatAxis?: (value: number) => string;
  /** Allowed tick steps of the y axis, e.g. BINARY_INCRS for bytes (default: uPlot's decimal steps). */
  yIncrs?: number[];
  /** Height of the plot in pixels (the legend comes below). Default 200. */
  height?: number;
  /** Fixed y bounds, e.g. 0 and 100 for percents; otherwise from 0 to a little above the data. */
  yMin?: number;
  yMax?: number;
  /** Accessible name of the chart. */
  label?: string;
  "data-testid"?: string;
}

const AXIS = {
  stroke: "#64748b",
  font: "11px ui-sans-serif, system-ui, sans-serif",
  grid: { stroke: "#f1f5f9", width: 1 },
  ticks: { stroke: "#e2e8f0", width: 1, size: 4 },
};

const plain = (v: number) => String(Math.round(v * 100) / 100);

/**
 * A time-series line chart (uPlot): one or more series over shared times, gaps where values are null. It follows its
 * container's width, keeps a fixed height, and shows "No data yet" when there is nothing to draw.
 */
export function TimeSeriesChart({ times, series, formatValue, formatAxis, yIncrs, height = 200, yMin, yMax, label, ...rest }: TimeSeriesChartProps) {
  const { t, i18n } = useTranslation();
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  // The formatter is read through a ref so that a new function on every render does not rebuild the chart.
  const format = useRef(formatValue ?? plain);
  format.current = formatValue ?? plain;
  const axisFormat = useRef(formatAxis ?? format.current);
  axisFormat.current = formatAxis ?? format.current;

  const empty = !hasData(times, series);
  const data = useMemo(() => toAlignedData(times, series), [times, series]);
  const latestData = useRef(data);
  latestData.current = data;
  // What the chart is built from, besides the data: a change rebuilds it.
  const shape = JSON.stringify([
    series.map((s) => [s.label, s.color, s.dash ?? null, !!s.faint, !!s.fill]),
    height,
    yMin ?? null,
    yMax ?? null,
    yIncrs ?? null,
    i18n.language,
  ]);

  useEffect(() => {
    const el = holder.current;
    if (empty || !el) return;
    const locale = i18n.language;
    const legendTime = legendFormat(locale);
    // Read back from `shape`, so that a caller passing a new (equal) array each render does not rebuild the chart.
    const [meta, , , , incrs] = JSON.parse(shape) as [[string, string, number[] | null, boolean, boolean][], number, unknown, unknown, number[] | null];
    const value = (_u: uPlot, v: number | null) => (v === null || v === undefined ? "-" : format.current(v));
    // Without the pointer over the chart the legend shows the newest values instead of dashes.
    const showLatest = (u: uPlot) => {
      const n = u.data[0]?.length ?? 0;
      if (n > 0 && (u.cursor.idx === null || u.cursor.idx === undefined)) u.setLegend({ idx: n - 1 });
    };

    const opts: uPlot.Options = {
      width: Math.max(el.clientWidth, 120),
      height,
      padding: [10, 12, 0, 4],
      cursor: { drag: { x: false, y: false, setScale: false }, points: { size: 6 } },
      legend: { show: true, live: true },
      hooks: { ready: [showLatest], setData: [showLatest], setCursor: [showLatest] },
      scales: {
        x: { time: true },
        y: { range: (_u, min, max) => yRange(min, max, yMin, yMax) },
      },
      axes: [
        {
          ...AXIS,
          space: 70,
          values: (u, splits, _axis, _space, incr) => {
            const span = ((u.scales.x.max ?? 0) - (u.scales.x.min ?? 0)) * 1000;
            const f = tickFormat(span, locale, incr * 1000);
            return splits.map((s) => f.format(s * 1000));
          },
        },
        {
          ...AXIS,
          space: 30,
          ...(incrs ? { incrs } : {}),
          values: (_u, splits) => splits.map((v) => axisFormat.current(v)),
          size: (_u, values) => axisSize(values),
        },
      ],
      series: [
        { label: t("charts.time"), value: (_u, v) => (v === null || v === undefined ? "-" : legendTime.format(v * 1000)) },
        ...meta.map(([name, color, dash, faint, fill]) => ({
          label: name,
          stroke: faint ? `${color}66` : color,
          width: faint ? 1 : 1.75,
          ...(dash ? { dash } : {}),
          ...(fill ? { fill: `${color}14` } : {}),
          spanGaps: false,
          // uPlot hides points on dense charts; a value between two gaps would then not show at all.
          points: { filter: (u: uPlot, si: number, show: boolean) => (show ? null : isolatedPoints(u, si)) },
          value,
        })),
      ],
    };
    const plot = new uPlot(opts, latestData.current as uPlot.AlignedData, el);
    chart.current = plot;

    let width = el.clientWidth;
    const observer = new ResizeObserver((entries) => {
      const next = Math.floor(entries[0]?.contentRect.width ?? 0);
      if (next > 0 && next !== width) {
        width = next;
        plot.setSize({ width: next, height });
      }
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, [shape, empty, height, yMin, yMax, i18n.language, t]);

  // New data for the same chart: redraw without rebuilding.
  useEffect(() => {
    chart.current?.setData(data as uPlot.AlignedData);
  }, [data]);

  return (
    <div role="figure" aria-label={label} className="w-full min-w-0" {...rest}>
      {empty ? (
        <div
          data-testid="chart-empty"
          className="flex items-center justify-center rounded-lg border border-dashed border-slate-200 bg-slate-50/60 text-sm text-slate-400"
          style={{ height }}
        >
          {t("charts.noData")}
        </div>
      ) : (
        <div ref={holder} className="w-full text-slate-600 [&_.u-legend]:text-xs [&_.u-legend]:leading-5 [&_.u-legend_th]:font-normal" />
      )}
    </div>
  );
}
