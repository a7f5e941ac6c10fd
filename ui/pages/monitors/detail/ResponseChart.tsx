import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { SERIES_RANGES, type MonitorSeries, type SeriesRange } from "../../../api/monitors";
import { Card } from "../../../components/Card";
import { RangeTabs } from "../../../components/DetailParts";
import { TimeSeriesChart, type ChartSeries } from "../../../components/charts/TimeSeriesChart";
import { failureMarkers } from "../../../components/charts/chartData";
import { formatMs } from "../model";
import { SectionTitle } from "./layout";

const RESPONSE_COLOR = "#6366f1";

const FAILURE_COLOR = "#dc2626";

interface ChartLabels {
  avg: string;
  hourAvg: string;
  min: string;
  max: string;
  failures: string;
  /** The legend at a failure marker: "failed" for one check, "3 of 60 failed" for an hour. */
  failedAt: (failed: number, checks: number) => string;
}

/**
 * The lines of the response-time chart: per check for 24 h, hourly average with min and max beyond; and a red marker
 * on the baseline wherever a check failed (a failed check often has no response time, so it would leave no trace).
 */
function chartLines(series: MonitorSeries, labels: ChartLabels): ChartSeries[] {
  const lines: ChartSeries[] =
    series.resolution === "raw"
      ? [{ label: labels.avg, values: series.responseTimes, color: RESPONSE_COLOR, fill: true }]
      : [
          { label: labels.hourAvg, values: series.responseTimes, color: RESPONSE_COLOR, fill: true },
          { label: labels.max, values: series.maxResponseTimes, color: "#f43f5e", faint: true },
          { label: labels.min, values: series.minResponseTimes, color: "#10b981", faint: true },
        ];
  const markers = failureMarkers(series.up);
  if (markers.every((m) => m === null)) return lines;
  const legendText = series.up.map((u, i) => {
    if (u === null || u >= 1) return null;
    const checks = series.checks[i] ?? 1;
    return labels.failedAt(Math.max(1, Math.round(checks * (1 - u))), checks);
  });
  return [...lines, { label: labels.failures, values: markers, color: FAILURE_COLOR, markers: true, legendText }];
}

/** Checks ran in the range but none got an answer: every response time is missing. */
function allChecksFailed(series: MonitorSeries): boolean {
  return series.checks.some((n) => n > 0) && series.responseTimes.every((v) => v === null);
}

/** The response-time chart with its range tabs; the page owns loading so pushed checks can refresh it. */
export function ResponseChartCard({
  range,
  onRange,
  series,
  error,
}: {
  range: SeriesRange;
  onRange: (r: SeriesRange) => void;
  series: MonitorSeries | null;
  error: string;
}) {
  const { t } = useTranslation();
  const labels = useMemo(
    () => ({
      avg: t("monitors.detail.chart.avg"),
      hourAvg: t("monitors.detail.chart.hourAvg"),
      min: t("monitors.detail.chart.min"),
      max: t("monitors.detail.chart.max"),
      failures: t("monitors.detail.chart.failures"),
      failedAt: (failed: number, checks: number) =>
        checks <= 1 ? t("monitors.detail.chart.failedOne") : t("monitors.detail.chart.failedOf", { failed, count: checks }),
    }),
    [t],
  );
  const lines = useMemo(() => (series ? chartLines(series, labels) : []), [series, labels]);
  return (
    <Card data-testid="monitor-chart-card">
      <SectionTitle
        actions={
          <RangeTabs
            ranges={SERIES_RANGES}
            range={range}
            onChange={onRange}
            label={t("monitors.detail.chart.range.label")}
            name={(r) => t(`monitors.detail.chart.range.${r}`)}
            testIdPrefix="chart-range-"
          />
        }
      >{t("monitors.detail.chart.title")}</SectionTitle>
      <div className="px-3 py-4 sm:px-5">
        {error ? (
          <p role="alert" data-testid="monitor-chart-error" className="px-2 py-8 text-center text-sm text-red-600">
            {error}
          </p>
        ) : !series ? (
          <div data-testid="monitor-chart-loading" role="status" className="flex h-[240px] items-center justify-center text-sm text-slate-400">
            {t("common.loading")}
          </div>
        ) : allChecksFailed(series) ? (
          // Nothing to draw (no check got an answer), but that is an outage, not an absence of data.
          <p
            role="status"
            data-testid="monitor-chart-all-failed"
            className="flex h-[240px] items-center justify-center rounded-lg border border-dashed border-red-200 bg-red-50/60 px-6 text-center text-sm text-red-700"
          >
            {t("monitors.strip.allFailed", { count: series.checks.reduce((a, b) => a + b, 0) })}
          </p>
        ) : (
          <TimeSeriesChart
            times={series.times}
            series={lines}
            height={240}
            xMin={series.from}
            xMax={series.to}
            formatValue={(v) => formatMs(v)}
            label={t("monitors.detail.chart.title")}
            data-testid="monitor-chart"
          />
        )}
      </div>
    </Card>
  );
}
