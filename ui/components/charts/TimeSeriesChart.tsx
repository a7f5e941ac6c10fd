import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import uPlot from "uplot"; // its stylesheet is imported by ui/app.css (see there why)
import { axisSize, hasData, isolatedIndexes, legendFormat, tickLabels, toAlignedData, yRange, type ChartSeries, type ChartThreshold } from "./chartData";

export type { ChartSeries, ChartThreshold } from "./chartData";
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
  /** The y range from the data's extent, instead of yMin/yMax (e.g. fitPercentRange). */
  yRangeOf?: (dataMin: number | null, dataMax: number | null) => [number, number];
  /** The time window shown (Unix ms): the x axis spans it whatever the data, so one point does not make a years-long axis. */
  xMin?: number;
  xMax?: number;
  /** Horizontal reference lines, drawn when inside the y range. */
  thresholds?: ChartThreshold[];
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
export function TimeSeriesChart({
  times,
  series,
  formatValue,
  formatAxis,
  yIncrs,
  height = 200,
  yMin,
  yMax,
  yRangeOf,
  xMin,
  xMax,
  thresholds,
  label,
  ...rest
}: TimeSeriesChartProps) {
  const { t, i18n } = useTranslation();
  const figure = useRef<HTMLDivElement>(null);
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
  // Read at draw time, so that a moving window or new thresholds redraw without rebuilding the chart.
  const view = useRef({ xMin, xMax, yRangeOf, thresholds, legendText: series.map((s) => s.legendText) });
  view.current = { xMin, xMax, yRangeOf, thresholds, legendText: series.map((s) => s.legendText) };
  // What the chart is built from, besides the data: a change rebuilds it.
  const shape = JSON.stringify([
    series.map((s) => [s.label, s.color, s.dash ?? null, !!s.faint, !!s.fill, !!s.markers]),
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
    const [meta, , , , incrs] = JSON.parse(shape) as [[string, string, number[] | null, boolean, boolean, boolean][], number, unknown, unknown, number[] | null];
    const value = (_u: uPlot, v: number | null, si: number, idx: number | null) => {
      if (v === null || v === undefined) return "-";
      const text = idx === null ? null : view.current.legendText[si - 1]?.[idx];
      return text ?? format.current(v);
    };
    // The scales in force, on the figure: what the axes really span (read by the browser tests, handy when debugging).
    const exposeScales = (u: uPlot) => {
      const fig = figure.current;
      if (!fig) return;
      const { x, y } = u.scales;
      fig.dataset.xMin = String(Math.round((x.min ?? 0) * 1000));
      fig.dataset.xMax = String(Math.round((x.max ?? 0) * 1000));
      fig.dataset.yMin = String(y.min ?? "");
      fig.dataset.yMax = String(y.max ?? "");
    };
    const drawThresholds = (u: uPlot) => {
      const lines = view.current.thresholds ?? [];
      const { ctx, bbox } = u;
      const [lo, hi] = [u.scales.y.min ?? 0, u.scales.y.max ?? 0];
      const shown = lines.filter((l) => l.value >= lo && l.value <= hi);
      if (figure.current) figure.current.dataset.thresholds = shown.map((l) => l.value).join(",");
      if (!shown.length) return;
      ctx.save();
      const ratio = devicePixelRatio || 1;
      ctx.font = `${10 * ratio}px ui-sans-serif, system-ui, sans-serif`;
      ctx.textAlign = "right";
      ctx.textBaseline = "bottom";
      for (const l of shown) {
        const y = Math.round(u.valToPos(l.value, "y", true)) + 0.5;
        ctx.strokeStyle = l.color;
        ctx.fillStyle = l.color;
        ctx.lineWidth = ratio;
        ctx.setLineDash([6 * ratio, 4 * ratio]);
        ctx.beginPath();
        ctx.moveTo(bbox.left, y);
        ctx.lineTo(bbox.left + bbox.width, y);
        ctx.stroke();
        ctx.fillText(l.label, bbox.left + bbox.width - 4 * ratio, y - 2 * ratio);
      }
      ctx.restore();
    };
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
      hooks: { ready: [showLatest, exposeScales], setData: [showLatest], setCursor: [showLatest], setScale: [exposeScales], draw: [drawThresholds] },
      scales: {
        x: {
          time: true,
          range: (_u, min, max) => {
            const { xMin: lo, xMax: hi } = view.current;
            return lo !== undefined && hi !== undefined && hi > lo ? [lo / 1000, hi / 1000] : [min, max];
          },
        },
        y: {
          range: (_u, min, max) => {
            const fit = view.current.yRangeOf;
            return fit ? fit(min, max) : yRange(min, max, yMin, yMax);
          },
        },
      },
      axes: [
        {
          ...AXIS,
          space: 70,
          values: (u, splits, _axis, _space, incr) => {
            const span = ((u.scales.x.max ?? 0) - (u.scales.x.min ?? 0)) * 1000;
            return tickLabels(splits.map((s) => s * 1000), span, locale, incr * 1000);
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
        ...meta.map(([name, color, dash, faint, fill, markers]): uPlot.Series =>
          markers
            ? // Events (failed checks): a marker each, no line between them.
              { label: name, stroke: color, width: 0, paths: () => null, points: { show: true, size: 7, width: 1, stroke: color, fill: color }, value }
            : {
                label: name,
                stroke: faint ? `${color}66` : color,
                width: faint ? 1 : 1.75,
                ...(dash ? { dash } : {}),
                ...(fill ? { fill: `${color}14` } : {}),
                spanGaps: false,
                // uPlot hides points on dense charts; a value between two gaps would then not show at all.
                points: { filter: (u: uPlot, si: number, show: boolean) => (show ? null : isolatedPoints(u, si)) },
                value,
              },
        ),
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
      const fig = figure.current;
      if (fig) for (const key of ["xMin", "xMax", "yMin", "yMax", "thresholds"]) delete fig.dataset[key];
    };
  }, [shape, empty, height, yMin, yMax, i18n.language, t]);

  // New data for the same chart: redraw without rebuilding.
  useEffect(() => {
    chart.current?.setData(data as uPlot.AlignedData);
  }, [data]);

  return (
    <div ref={figure} role="figure" aria-label={label} className="w-full min-w-0" {...rest}>
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
