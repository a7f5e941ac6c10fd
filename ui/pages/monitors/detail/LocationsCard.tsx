import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { errorMessage } from "../../../api/errors";
import {
  getLocations,
  getLocationSeries,
  LOCATION_RANGES,
  type LocationRange,
  type LocationSeries,
  type LocationStatus,
  type MonitorLocation,
  type MonitorLocations,
} from "../../../api/locations";
import type { PublicMonitor } from "../../../api/monitors";
import { Button } from "../../../components/Button";
import { Card } from "../../../components/Card";
import { TimeSeriesChart } from "../../../components/charts/TimeSeriesChart";
import { RangeTabs } from "../../../components/DetailParts";
import { usePolling } from "../../../components/hooks";
import { LoadError } from "../../../components/LoadState";
import { useLive, useLiveChecks } from "../../../state/live";
import { isAdmin } from "../../../state/session";
import { translateCheckError } from "../checkError";
import { formatMs } from "../model";
import { Ago } from "../parts";
import { SectionTitle } from "./layout";
import { LocationsForm, useRuleExplanation } from "./LocationsForm";
import { DotBadge } from "../../../components/RoleBadge";
import { downFrom, gapMs, locationKey, locationLines, RANGE_MS, shownStatus } from "./locationsModel";

/** Without live events (or besides them), the card reloads this often. */
const POLL_MS = 30_000;
/** After pushed checks, the card reloads at most this often. */
const RELOAD_THROTTLE_MS = 3_000;

const STATUS_BADGE: Record<LocationStatus, { tone: "green" | "red" | "grey"; key: "up" | "down" | "noData" }> = {
  up: { tone: "green", key: "up" },
  down: { tone: "red", key: "down" },
  "no data": { tone: "grey", key: "noData" },
};

function LocationBadge({ status, testId }: { status: LocationStatus; testId: string }) {
  const { t } = useTranslation();
  const { tone, key } = STATUS_BADGE[status] ?? STATUS_BADGE["no data"];
  return (
    <DotBadge tone={tone} data-testid={testId} data-status={status}>
      {t(`monitors.locations.status.${key}`)}
    </DotBadge>
  );
}

/** The server in the reader's language; an agent by its name. */
function useLocationName() {
  const { t } = useTranslation();
  return useCallback((l: { agentId: number | null; name: string }) => (l.agentId === null ? t("monitors.locations.server") : l.name), [t]);
}

function LocationRow({ location }: { location: MonitorLocation }) {
  const { t } = useTranslation();
  const nameOf = useLocationName();
  const key = locationKey(location);
  const status = shownStatus(location);
  const latest = location.latest;
  const figures = latest ? [latest.responseTime !== null ? formatMs(latest.responseTime) : null, latest.httpStatus !== null ? `HTTP ${latest.httpStatus}` : null].filter(Boolean) : [];
  return (
    <li data-testid={`location-${key}`} data-status={status} className="flex flex-wrap items-center gap-x-4 gap-y-1.5 px-5 py-3 sm:px-6">
      <div className="min-w-0 flex-1 basis-40">
        {location.agentId === null ? (
          <p data-testid={`location-${key}-name`} className="truncate text-sm font-medium text-slate-900">
            {nameOf(location)}
          </p>
        ) : (
          <Link href={`/agents/${location.agentId}`} data-testid={`location-${key}-name`} className="block truncate text-sm font-medium text-indigo-700 hover:text-indigo-500">
            {location.name}
          </Link>
        )}
        {location.agentId !== null && !location.online && (
          <p data-testid={`location-${key}-offline`} className="text-xs text-slate-500">
            {t("monitors.locations.agentOffline")}
          </p>
        )}
      </div>
      <LocationBadge status={status} testId={`location-${key}-status`} />
      <p data-testid={`location-${key}-latest`} className="w-full text-xs text-slate-500 tabular-nums sm:w-auto sm:min-w-40 sm:text-right">
        {latest ? (
          <>
            {figures.length > 0 && <>{figures.join(" · ")} · </>}
            <Ago at={latest.time} />
          </>
        ) : (
          t("monitors.locations.never")
        )}
      </p>
      {latest?.error && (
        <p data-testid={`location-${key}-error`} className="w-full text-xs font-medium break-words text-red-700">
          {translateCheckError(t, latest.error)}
        </p>
      )}
    </li>
  );
}

function LocationsChart({ series, error, range, onRange, interval }: { series: LocationSeries[] | null; error: string; range: LocationRange; onRange: (r: LocationRange) => void; interval: number }) {
  const { t } = useTranslation();
  const nameOf = useLocationName();
  const chart = useMemo(() => (series ? locationLines(series, gapMs(range, interval), nameOf) : null), [series, range, interval, nameOf]);
  const now = Date.now();
  return (
    <div className="space-y-3 px-3 py-4 sm:px-5">
      <div className="flex flex-wrap items-center justify-between gap-3 px-2">
        <h3 className="text-sm font-semibold text-slate-900">{t("monitors.locations.chart.title")}</h3>
        <RangeTabs
          ranges={LOCATION_RANGES}
          range={range}
          onChange={onRange}
          label={t("monitors.locations.chart.range")}
          name={(r) => t(`monitors.detail.chart.range.${r}`)}
          testIdPrefix="locations-range-"
        />
      </div>
      {error ? (
        <p role="alert" data-testid="locations-chart-error" className="px-2 py-8 text-center text-sm text-red-600">
          {error}
        </p>
      ) : !chart ? (
        <div role="status" data-testid="locations-chart-loading" className="flex h-[220px] items-center justify-center text-sm text-slate-400">
          {t("common.loading")}
        </div>
      ) : (
        <TimeSeriesChart
          times={chart.times}
          series={chart.lines}
          height={220}
          xMin={now - RANGE_MS[range]}
          xMax={now}
          formatValue={(v) => formatMs(v)}
          label={t("monitors.locations.chart.title")}
          data-testid="locations-chart"
        />
      )}
    </div>
  );
}

/**
 * Where a monitor is checked from (the server, agents): each location's status and latest result, their response
 * times side by side, the rule of the verdict; admins change it here (the server lets only admins assign checks to
 * agents). Reloads on the monitor's checks and every 30 s.
 */
export function LocationsCard({ monitor }: { monitor: PublicMonitor }) {
  useSignals();
  const { t } = useTranslation();
  const explain = useRuleExplanation();
  const nameOf = useLocationName();
  const id = monitor.id;
  const [data, setData] = useState<MonitorLocations | null>(null);
  const [error, setError] = useState("");
  const [range, setRange] = useState<LocationRange>("24h");
  const [series, setSeries] = useState<LocationSeries[] | null>(null);
  const [seriesError, setSeriesError] = useState("");
  const [editing, setEditing] = useState(false);

  const load = useCallback(async () => {
    try {
      setData(await getLocations(id));
      setError("");
    } catch (err) {
      setError(errorMessage(err, t("monitors.locations.loadFailed")));
    }
  }, [id, t]);

  const shownRange = useRef(range); // a late answer for a range no longer selected is dropped
  shownRange.current = range;
  const loadSeries = useCallback(async () => {
    const wanted = range;
    try {
      const reply = await getLocationSeries(id, wanted);
      if (shownRange.current !== wanted) return;
      setSeries(reply.locations);
      setSeriesError("");
    } catch (err) {
      if (shownRange.current === wanted) setSeriesError(errorMessage(err, t("monitors.locations.chart.failed")));
    }
  }, [id, range, t]);

  useEffect(() => {
    setData(null);
    void load();
  }, [load]);
  useEffect(() => {
    setSeries(null);
    void loadSeries();
  }, [loadSeries]);

  const latest = useRef({ load, loadSeries });
  latest.current = { load, loadSeries };
  const refresh = useCallback(() => Promise.all([latest.current.load(), latest.current.loadSeries()]), []);
  usePolling(refresh, POLL_MS);

  // This monitor's checks (a verdict of its locations): reload soon after, at most every few seconds.
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const scheduleRefresh = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void refresh();
    }, RELOAD_THROTTLE_MS);
  }, [refresh]);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const watched = useMemo(() => [id], [id]);
  useLiveChecks(watched, scheduleRefresh); // this monitor's checks only
  useLive("hello", () => void refresh());

  const saved = (next: MonitorLocations) => {
    setData(next);
    setEditing(false);
    void loadSeries();
  };

  const total = data ? data.locations.length : 0;
  const downNow = data ? downFrom(data.locations, nameOf) : null;
  return (
    <Card data-testid="monitor-locations">
      <SectionTitle
        actions={
          isAdmin.value && data !== null && !editing ? (
            <Button variant="secondary" size="sm" onClick={() => setEditing(true)} data-testid="locations-edit">
              {t("monitors.locations.edit")}
            </Button>
          ) : undefined
        }
      >
        {t("monitors.locations.title")}
      </SectionTitle>
      {editing && data && <LocationsForm monitorId={id} current={data} onSaved={saved} onCancel={() => setEditing(false)} />}
      {error && !data ? (
        <LoadError message={error} onRetry={() => void load()} data-testid="locations-error" />
      ) : !data ? (
        <p role="status" data-testid="locations-loading" className="px-6 py-8 text-center text-sm text-slate-400">
          {t("common.loading")}
        </p>
      ) : (
        <>
          <p className="px-5 pt-4 text-sm text-slate-600 sm:px-6">{t("monitors.locations.intro")}</p>
          <ul data-testid="locations-list" className="divide-y divide-slate-100">
            {data.locations.map((l) => (
              <LocationRow key={locationKey(l)} location={l} />
            ))}
          </ul>
          {total > 1 && (
            <div className="space-y-0.5 border-t border-slate-100 px-5 py-3 text-sm sm:px-6">
              {downNow && (
                <p data-testid="locations-down" className="font-medium text-red-700">
                  {t("monitors.locations.downFrom", downNow)}
                </p>
              )}
              <p data-testid="locations-rule" data-rule={data.rule}>
                <span className="font-medium text-slate-700">{t("monitors.locations.ruleLabel")}:</span>{" "}
                <span className="text-slate-600">{explain(data.rule, data.count, total)}</span>
              </p>
              <p className="text-xs text-slate-500">{t("monitors.locations.leftOut")}</p>
            </div>
          )}
        </>
      )}
      {/* The server alone keeps its results with the monitor's own checks (the chart above): no second chart. */}
      {data && data.agentIds.length > 0 && (
        <div className="border-t border-slate-100">
          <LocationsChart series={series} error={seriesError} range={range} onRange={setRange} interval={monitor.interval} />
        </div>
      )}
    </Card>
  );
}
