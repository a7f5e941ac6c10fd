import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation, useParams } from "wouter";
import { errorMessage } from "../../api/errors";
import {
  SERIES_RANGES,
  checkMonitor,
  deleteMonitor,
  getMonitor,
  getMonitorHistory,
  getMonitorSeries,
  getRecentChecks,
  regeneratePushToken,
  updateMonitor,
  type CheckResult,
  type HistoryWindow,
  type MonitorHistory,
  type MonitorSeries,
  type PublicMonitor,
  type RecentCheck,
  type SeriesRange,
  type StatusBucket,
} from "../../api/monitors";
import { appendCheck, CheckStrip } from "./CheckStrip";
import { Button, ButtonLink } from "../../components/Button";
import { CodeBlock, CopyButton } from "../../components/CodeBlock";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { TagChip } from "../../components/Tag";
import { BellIcon } from "../../components/icons";
import { Card } from "../../components/Card";
import { TimeSeriesChart, type ChartSeries } from "../../components/charts/TimeSeriesChart";
import { failureMarkers } from "../../components/charts/chartData";
import { usePolling } from "../../components/hooks";
import { PageLoading } from "../../components/PageLoading";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLive } from "../../state/live";
import { applyCheck, applyStatus, displayStatus, formatAvailability, formatMs, hasTimeout, pushExamples, pushUrl, tlsExpiry } from "./model";
import { Ago, LiveIndicator, MonitorStatusBadge, StatusBar, TypeBadge, useCheckSummary } from "./parts";
import { Time, useClock } from "../../components/time";
import { translateCheckError } from "./checkError";

/** History bars slide with time: refreshed this often even without checks. */
const HISTORY_POLL_MS = 60_000;
/** After pushed checks, history and chart reload at most this often. */
const RELOAD_THROTTLE_MS = 3_000;

const RESPONSE_COLOR = "#6366f1";

function Fact({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-400">{label}</dt>
      <dd data-testid={testId} className="mt-1 break-words text-sm text-slate-800">
        {children}
      </dd>
    </div>
  );
}

function SectionTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-5 py-4 sm:px-6">
      <h2 className="text-base font-semibold text-slate-900">{children}</h2>
      {actions}
    </div>
  );
}

/** The outcome of a manual check: status, HTTP status, response time, error. */
function CheckResultPanel({ result, http }: { result: CheckResult; http: boolean }) {
  const { t } = useTranslation();
  const up = result.status === "up";
  return (
    <div
      data-testid="monitor-check-result"
      data-status={result.status}
      role="status"
      className={`rounded-xl border px-5 py-4 ${up ? "border-emerald-200 bg-emerald-50/60" : "border-red-200 bg-red-50/60"}`}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="text-sm font-semibold text-slate-900">{t("monitors.detail.checkResult")}</span>
        <MonitorStatusBadge status={result.status} data-testid="monitor-check-result-status" />
        <span className="text-xs text-slate-500">
          <Ago at={result.time} />
        </span>
      </div>
      <dl className="mt-3 grid gap-4 sm:grid-cols-3">
        {http && (
          <Fact label={t("monitors.detail.httpStatus")} testId="monitor-check-result-http">
            <span className="tabular-nums">{result.httpStatus ?? t("common.dash")}</span>
          </Fact>
        )}
        <Fact label={t("monitors.detail.responseTime")} testId="monitor-check-result-time">
          <span className="tabular-nums">{formatMs(result.responseTime, t("common.dash"))}</span>
        </Fact>
        <Fact label={t("monitors.detail.error")} testId="monitor-check-result-error">
          {result.error ? <span className="font-medium text-red-700">{translateCheckError(t, result.error)}</span> : t("monitors.detail.noError")}
        </Fact>
      </dl>
    </div>
  );
}

/** One window's bar and figures (24 hours or 30 days). */
function HistoryCard({ title, window, daily, testId }: { title: string; window: HistoryWindow & { buckets: StatusBucket[] }; daily: boolean; testId: string }) {
  const { t } = useTranslation();
  const dash = t("common.dash");
  const latest = window.latest;
  const availability = window.availability;
  const tone = availability === null ? "text-slate-400" : availability >= 99 ? "text-emerald-600" : availability >= 95 ? "text-amber-600" : "text-red-600";
  return (
    <Card data-testid={`history-${testId}`}>
      <SectionTitle
        actions={
          <span data-testid={`history-${testId}-availability`} className={`text-lg font-semibold tabular-nums ${tone}`}>
            {formatAvailability(availability, dash)}
          </span>
        }
      >
        {title}
      </SectionTitle>
      <div className="space-y-5 px-5 py-5 sm:px-6">
        <StatusBar
          buckets={window.buckets}
          daily={daily}
          label={t(daily ? "monitors.detail.monthBar" : "monitors.detail.dayBar")}
          startLabel={t(daily ? "monitors.detail.ago30d" : "monitors.detail.ago24h")}
          endLabel={t("monitors.detail.now")}
          data-testid={daily ? "status-bar-month" : "status-bar-day"}
        />
        <dl className="grid grid-cols-2 gap-x-4 gap-y-4 sm:grid-cols-3">
          <Fact label={t("monitors.detail.aggregates.checks")} testId={`history-${testId}-checks`}>
            <span className="font-semibold tabular-nums">{window.total.toLocaleString()}</span>
            <span className="ml-1.5 text-xs text-slate-500">{t("monitors.detail.aggregates.upDown", { up: window.up, down: window.down })}</span>
          </Fact>
          <Fact label={t("monitors.detail.aggregates.avg")} testId={`history-${testId}-avg`}>
            <span className="tabular-nums">{formatMs(window.avgResponseTime, dash)}</span>
          </Fact>
          <Fact label={`${t("monitors.detail.aggregates.min")} / ${t("monitors.detail.aggregates.max")}`} testId={`history-${testId}-minmax`}>
            <span className="tabular-nums">
              {formatMs(window.minResponseTime, dash)} / {formatMs(window.maxResponseTime, dash)}
            </span>
          </Fact>
          <Fact label={t("monitors.detail.aggregates.records")} testId={`history-${testId}-records`}>
            <span className="tabular-nums">{window.recordCount.toLocaleString()}</span>
          </Fact>
          <Fact label={t("monitors.detail.aggregates.latest")} testId={`history-${testId}-latest`}>
            {latest ? (
              <span className="inline-flex flex-wrap items-center gap-1.5">
                <MonitorStatusBadge status={latest.status} />
                <span className="text-xs text-slate-500">
                  {[latest.httpStatus, formatMs(latest.responseTime, "")].filter(Boolean).join(" · ")} · <Ago at={latest.time} />
                </span>
              </span>
            ) : (
              t("monitors.detail.aggregates.none")
            )}
          </Fact>
          <Fact label={t("monitors.detail.aggregates.lastError")} testId={`history-${testId}-error`}>
            {window.error ? (
              <span>
                <span className="text-red-700">{translateCheckError(t, window.error.message)}</span>
                <span className="ml-1.5 text-xs text-slate-500">
                  <Ago at={window.error.time} />
                </span>
              </span>
            ) : (
              t("monitors.detail.aggregates.none")
            )}
          </Fact>
        </dl>
      </div>
    </Card>
  );
}

function RangeTabs({ range, onChange }: { range: SeriesRange; onChange: (r: SeriesRange) => void }) {
  const { t } = useTranslation();
  return (
    <div role="tablist" aria-label={t("monitors.detail.chart.range.label")} className="inline-flex rounded-lg bg-slate-100 p-0.5">
      {SERIES_RANGES.map((r) => (
        <button
          key={r}
          type="button"
          role="tab"
          aria-selected={range === r}
          onClick={() => onChange(r)}
          data-testid={`chart-range-${r}`}
          className={`cursor-pointer rounded-md px-3 py-1 text-sm font-medium transition-colors ${
            range === r ? "bg-white text-slate-900 shadow-sm ring-1 ring-slate-200" : "text-slate-500 hover:text-slate-800"
          }`}
        >
          {t(`monitors.detail.chart.range.${r}`)}
        </button>
      ))}
    </div>
  );
}

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

function TlsExpiry({ monitor }: { monitor: PublicMonitor }) {
  const { t, i18n } = useTranslation();
  const now = useClock();
  if (!monitor.url.toLowerCase().startsWith("https:")) return <>{t("monitors.detail.info.tlsNotHttps")}</>;
  if (monitor.tlsExpiresAt === null) return <>{t("monitors.detail.info.tlsUnknown")}</>;
  const { days, level } = tlsExpiry(monitor.tlsExpiresAt, now);
  const date = new Intl.DateTimeFormat(i18n.language, { year: "numeric", month: "short", day: "numeric" }).format(monitor.tlsExpiresAt);
  return (
    <span className="space-y-1">
      <span className="block">
        {date}
        {level !== "expired" && <span className="ml-1.5 text-slate-500">({t("monitors.detail.info.tlsDaysLeft", { count: days })})</span>}
      </span>
      {level !== "ok" && (
        <span data-testid="monitor-tls-warning" className={`block text-xs font-medium ${level === "expired" ? "text-red-600" : "text-amber-700"}`}>
          {level === "expired" ? t("monitors.detail.info.tlsExpired") : t("monitors.detail.info.tlsWarning", { count: days })}
        </span>
      )}
    </span>
  );
}

/** What the page says a monitor checks, under its name: the URL, host:port, the DNS question, or the push wait. */
function TargetLine({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  if (monitor.type === "http") {
    return (
      <p className="mt-1 truncate font-mono text-sm text-slate-500" data-testid="monitor-url" title={monitor.url}>
        <span className="mr-2 text-slate-400">{monitor.method}</span>
        <a href={monitor.url} target="_blank" rel="noreferrer noopener" className="hover:text-indigo-600 hover:underline">
          {monitor.url}
        </a>
      </p>
    );
  }
  if (monitor.type === "push") {
    return (
      <p className="mt-1 text-sm text-slate-500" data-testid="monitor-target">
        {t("monitors.detail.pushWaiting")}
      </p>
    );
  }
  return (
    <p className="mt-1 truncate font-mono text-sm text-slate-500" data-testid="monitor-target" title={monitor.target}>
      {monitor.target}
      {monitor.type === "dns" && monitor.dnsResolver && <span className="ml-2 text-slate-400">@{monitor.dnsResolver}</span>}
    </p>
  );
}

/** A push monitor's URL, curl lines for a cron job, the latest call, and replacing the URL (behind a confirmation). */
function PushCard({ monitor, onChange }: { monitor: PublicMonitor; onChange: (m: PublicMonitor) => void }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!monitor.pushToken) return null;
  const url = pushUrl(window.location.origin, monitor.pushToken);
  const examples = pushExamples(url);
  const regenerate = async () => {
    setBusy(true);
    try {
      const reply = await regeneratePushToken(monitor.id);
      onChange(reply.monitor);
      toast.success(t("monitors.detail.push.regenerated"));
      setAsking(false);
    } catch (err) {
      toast.error(errorMessage(err, t("monitors.detail.push.regenerateFailed")));
    } finally {
      setBusy(false);
    }
  };
  const example = (key: "up" | "down" | "post") => (
    <div className="space-y-1.5">
      <p className="text-xs font-medium text-slate-600">{t(`monitors.detail.push.${key}`)}</p>
      <CodeBlock code={examples[key]} data-testid={`monitor-push-curl-${key}`} copyTestId={`monitor-push-curl-${key}-copy`} copiedMessage={t("monitors.detail.push.commandCopied")} />
    </div>
  );
  return (
    <Card data-testid="monitor-push">
      <SectionTitle
        actions={
          <Button variant="secondary" size="sm" onClick={() => setAsking(true)} data-testid="monitor-push-regenerate">
            {t("monitors.detail.push.regenerate")}
          </Button>
        }
      >
        {t("monitors.detail.push.title")}
      </SectionTitle>
      <div className="space-y-5 px-5 py-5 sm:px-6">
        <p className="text-sm text-slate-600">{t("monitors.detail.push.intro", { interval: monitor.interval, grace: monitor.pushGrace })}</p>
        <div className="space-y-1.5">
          <p className="text-xs font-medium uppercase tracking-wide text-slate-400">{t("monitors.detail.push.url")}</p>
          <div className="flex items-center gap-3 rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-inset ring-slate-200">
            <code data-testid="monitor-push-url" className="min-w-0 flex-1 font-mono text-sm [overflow-wrap:anywhere] text-slate-800">
              {url}
            </code>
            <CopyButton text={url} copiedMessage={t("monitors.detail.push.urlCopied")} data-testid="monitor-push-url-copy" />
          </div>
          <p className="text-xs text-amber-700">{t("monitors.detail.push.secret")}</p>
        </div>
        <p className="text-sm text-slate-700">
          <span className="font-medium">{t("monitors.detail.push.lastPush")}:</span>{" "}
          <span data-testid="monitor-push-last">
            <Ago at={monitor.lastPushAt} never={t("monitors.detail.push.never")} />
          </span>
        </p>
        <div className="space-y-3">
          <h3 className="text-sm font-semibold text-slate-900">{t("monitors.detail.push.examples")}</h3>
          {example("up")}
          {example("down")}
          {example("post")}
          <p className="text-xs text-slate-500">{t("monitors.detail.push.params")}</p>
        </div>
      </div>
      <ConfirmDialog
        open={asking}
        title={t("monitors.detail.push.regenerateTitle")}
        message={t("monitors.detail.push.regenerateMessage")}
        confirmLabel={t("monitors.detail.push.regenerateConfirm")}
        busy={busy}
        onConfirm={() => void regenerate()}
        onCancel={() => setAsking(false)}
      />
    </Card>
  );
}

/** The facts of a type: http's request and assertions, tcp's host and port, dns's question, push's grace. */
function TypeFacts({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  const none = t("monitors.detail.info.none");
  const off = t("monitors.detail.info.off");
  const mono = (text: ReactNode) => <span className="font-mono">{text}</span>;
  switch (monitor.type) {
    case "http":
      return (
        <>
          <Fact label={t("monitors.detail.info.method")} testId="monitor-info-method">
            {mono(monitor.method)}
          </Fact>
          <Fact label={t("monitors.detail.info.expectedStatus")} testId="monitor-info-expected">
            {mono(monitor.expectedStatus)}
          </Fact>
          <Fact label={t("monitors.detail.info.redirects")} testId="monitor-info-redirects">
            {monitor.followRedirects ? t("monitors.detail.info.follow") : t("monitors.detail.info.noFollow")}
          </Fact>
          <Fact label={t("monitors.detail.info.tls")} testId="monitor-info-tls">
            <TlsExpiry monitor={monitor} />
          </Fact>
          <Fact label={t("monitors.detail.info.keyword")} testId="monitor-info-keyword">
            {monitor.keyword === null ? (
              none
            ) : (
              <span className="space-y-0.5">
                <span className="block">
                  {t(monitor.keywordInvert ? "monitors.detail.info.mustNotContain" : "monitors.detail.info.mustContain")}{" "}
                  <span className="rounded bg-slate-100 px-1 font-mono">{monitor.keyword}</span>
                </span>
                <span className="block text-xs text-slate-500">
                  {t(monitor.keywordCaseSensitive ? "monitors.detail.info.caseSensitive" : "monitors.detail.info.anyCase")}
                </span>
              </span>
            )}
          </Fact>
          <Fact label={t("monitors.detail.info.jsonPath")} testId="monitor-info-jsonpath">
            {monitor.jsonPath === null ? none : mono(monitor.jsonPath)}
          </Fact>
          <Fact label={t("monitors.detail.info.maxResponseTime")} testId="monitor-info-max-response-time">
            {monitor.maxResponseTime === null ? off : <span className="tabular-nums">{formatMs(monitor.maxResponseTime)}</span>}
          </Fact>
          <Fact label={t("monitors.detail.info.tlsExpiryDays")} testId="monitor-info-tls-expiry-days">
            {monitor.tlsExpiryDays === null ? off : t("monitors.detail.info.tlsExpiryWithin", { count: monitor.tlsExpiryDays })}
          </Fact>
          <Fact label={t("monitors.detail.info.ignoreTls")} testId="monitor-info-ignore-tls">
            {monitor.ignoreTls ? t("monitors.detail.info.tlsIgnored") : t("monitors.detail.info.tlsRefused")}
          </Fact>
        </>
      );
    case "tcp":
      return (
        <>
          <Fact label={t("monitors.detail.info.host")} testId="monitor-info-host">
            {mono(monitor.host)}
          </Fact>
          <Fact label={t("monitors.detail.info.port")} testId="monitor-info-port">
            {mono(monitor.port ?? t("common.dash"))}
          </Fact>
        </>
      );
    case "dns":
      return (
        <>
          <Fact label={t("monitors.detail.info.dnsName")} testId="monitor-info-dns-name">
            {mono(monitor.host)}
          </Fact>
          <Fact label={t("monitors.detail.info.dnsRecordType")} testId="monitor-info-dns-record">
            {mono(monitor.dnsRecordType)}
          </Fact>
          <Fact label={t("monitors.detail.info.dnsResolver")} testId="monitor-info-dns-resolver">
            {monitor.dnsResolver === null ? t("monitors.detail.info.systemResolver") : mono(monitor.dnsResolver)}
          </Fact>
          <Fact label={t("monitors.detail.info.dnsExpected")} testId="monitor-info-dns-expected">
            {monitor.dnsExpected === null ? t("monitors.detail.info.anyAnswer") : mono(monitor.dnsExpected)}
          </Fact>
        </>
      );
    case "push":
      return (
        <>
          <Fact label={t("monitors.detail.info.pushGrace")} testId="monitor-info-push-grace">
            {t("monitors.detail.info.seconds", { count: monitor.pushGrace })}
          </Fact>
          <Fact label={t("monitors.detail.info.lastPush")} testId="monitor-info-last-push">
            <Ago at={monitor.lastPushAt} never={t("monitors.detail.push.never")} />
          </Fact>
        </>
      );
  }
}

function DetailsCard({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  const none = t("monitors.detail.info.none");
  return (
    <Card data-testid="monitor-info">
      <SectionTitle>{t("monitors.detail.info.title")}</SectionTitle>
      <dl className="grid gap-x-6 gap-y-5 px-5 py-5 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <Fact label={t("monitors.detail.info.type")} testId="monitor-info-type">
          {t(`monitors.types.${monitor.type}`)}
        </Fact>
        <Fact label={t("monitors.detail.info.interval")} testId="monitor-info-interval">
          {t("monitors.detail.info.everyMinutes", { count: monitor.interval })}
        </Fact>
        {hasTimeout(monitor.type) && (
          <Fact label={t("monitors.detail.info.timeout")} testId="monitor-info-timeout">
            {t("monitors.detail.info.seconds", { count: monitor.timeout })}
          </Fact>
        )}
        <Fact label={t("monitors.detail.info.retries")} testId="monitor-info-retries">
          {monitor.retries}
        </Fact>
        <TypeFacts monitor={monitor} />
        <Fact label={t("monitors.detail.info.created")} testId="monitor-info-created">
          <Time at={monitor.createdAt} />
        </Fact>
        <Fact label={t("monitors.detail.info.tags")} testId="monitor-info-tags">
          {monitor.tags.length === 0 ? (
            none
          ) : (
            <span className="flex flex-wrap gap-1">
              {monitor.tags.map((tag) => (
                <TagChip key={tag} tag={tag} />
              ))}
            </span>
          )}
        </Fact>
        {monitor.type === "http" && (
          <div className="sm:col-span-2 lg:col-span-4">
            <Fact label={t("monitors.detail.info.headers")} testId="monitor-info-headers">
              {monitor.headers.length === 0 ? (
                none
              ) : (
                <span className="block space-y-0.5 font-mono text-xs">
                  {monitor.headers.map((h, i) => (
                    <span key={i} className="block">
                      <span className="text-slate-500">{h.name}:</span> {h.value}
                    </span>
                  ))}
                </span>
              )}
            </Fact>
          </div>
        )}
        {monitor.type === "http" && monitor.body !== null && (
          <div className="sm:col-span-2 lg:col-span-4">
            <Fact label={t("monitors.detail.info.body")} testId="monitor-info-body">
              <pre className="max-h-48 overflow-auto rounded-lg bg-slate-50 p-3 font-mono text-xs text-slate-700 ring-1 ring-slate-200">{monitor.body}</pre>
            </Fact>
          </div>
        )}
      </dl>
    </Card>
  );
}

/** Checks ran in the range but none got an answer: every response time is missing. */
function allChecksFailed(series: MonitorSeries): boolean {
  return series.checks.some((n) => n > 0) && series.responseTimes.every((v) => v === null);
}

export default function MonitorDetail() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const { id: rawId } = useParams<{ id: string }>();
  const id = Number(rawId);
  const summary = useCheckSummary();

  const [monitor, setMonitor] = useState<PublicMonitor | null>(null);
  const [loadError, setLoadError] = useState("");
  const [gone, setGone] = useState(false);
  const [history, setHistory] = useState<MonitorHistory | null>(null);
  const [historyError, setHistoryError] = useState("");
  const [range, setRange] = useState<SeriesRange>("24h");
  const [series, setSeries] = useState<MonitorSeries | null>(null);
  const [seriesError, setSeriesError] = useState("");
  const [checking, setChecking] = useState(false);
  const [checkResult, setCheckResult] = useState<CheckResult | null>(null);
  const [pausing, setPausing] = useState(false);
  const [checks, setChecks] = useState<RecentCheck[] | null>(null);
  useDocumentTitle(monitor ? monitor.name : t("monitors.detailTitle"));

  const shownRange = useRef(range); // a late answer for a range no longer selected is dropped
  shownRange.current = range;

  useEffect(() => {
    let live = true;
    setMonitor(null);
    setLoadError("");
    setGone(false);
    setCheckResult(null);
    getMonitor(id)
      .then((reply) => live && setMonitor(reply.monitor))
      .catch((err) => live && setLoadError(errorMessage(err, t("monitors.fetchFailed"))));
    return () => {
      live = false;
    };
  }, [id, t]);

  const loadHistory = useCallback(async () => {
    try {
      const reply = await getMonitorHistory(id);
      setHistory(reply.history);
      setHistoryError("");
    } catch (err) {
      setHistoryError(errorMessage(err, t("monitors.detail.historyFailed")));
    }
  }, [id, t]);

  const loadSeries = useCallback(async () => {
    const wanted = range;
    try {
      const reply = await getMonitorSeries(id, wanted);
      if (shownRange.current !== wanted) return;
      setSeries(reply.series);
      setSeriesError("");
    } catch (err) {
      if (shownRange.current === wanted) setSeriesError(errorMessage(err, t("monitors.detail.chart.failed")));
    }
  }, [id, range, t]);

  const loadChecks = useCallback(() => {
    getRecentChecks(id)
      .then((reply) => setChecks(reply.checks))
      .catch(() => {}); // the strip is an extra; the history below has the same facts
  }, [id]);
  useEffect(() => {
    setChecks(null);
    loadChecks();
  }, [loadChecks]);
  const addCheck = (check: RecentCheck) => setChecks((c) => (c ? appendCheck(c, check) : c));

  useEffect(() => {
    setHistory(null);
    void loadHistory();
  }, [loadHistory]);
  useEffect(() => {
    setSeries(null);
    void loadSeries();
  }, [loadSeries]);

  const ready = monitor !== null && !gone;
  usePolling(loadHistory, HISTORY_POLL_MS, ready);

  // Pushed checks: the header at once, history and chart soon after (at most every few seconds).
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef({ loadHistory, loadSeries });
  latest.current = { loadHistory, loadSeries };
  const scheduleReload = useCallback(() => {
    if (reloadTimer.current) return;
    reloadTimer.current = setTimeout(() => {
      reloadTimer.current = null;
      void latest.current.loadHistory();
      void latest.current.loadSeries();
    }, RELOAD_THROTTLE_MS);
  }, []);
  useEffect(() => () => {
    if (reloadTimer.current) clearTimeout(reloadTimer.current);
  }, []);

  useLive(
    "monitor.check",
    (data) => {
      if (data.monitorId !== id) return;
      setMonitor((m) => (m ? applyCheck(m, data) : m));
      addCheck(data.result);
      scheduleReload();
    },
    ready,
  );
  useLive("monitor.status", (data) => data.monitorId === id && setMonitor((m) => (m ? applyStatus(m, data) : m)), ready);
  useLive(
    "monitor.change",
    (data) => {
      if (data.monitorId !== id) return;
      if (data.action === "deleted") setGone(true);
      else if (data.monitor) setMonitor(data.monitor);
    },
    ready,
  );
  useLive(
    "hello",
    () => {
      getMonitor(id)
        .then((reply) => setMonitor(reply.monitor))
        .catch(() => {});
      loadChecks();
      scheduleReload();
    },
    ready,
  );

  const runCheck = async () => {
    if (!monitor) return;
    setChecking(true);
    try {
      const reply = await checkMonitor(monitor.id);
      setCheckResult(reply.result);
      setMonitor(reply.monitor);
      addCheck(reply.result);
      const text = t(reply.result.status === "up" ? "monitors.checkUp" : "monitors.checkDown", { name: reply.monitor.name, detail: summary(reply.result) });
      if (reply.result.status === "up") toast.success(text);
      else toast.error(text);
      void loadHistory();
      void loadSeries();
    } catch (err) {
      toast.error(errorMessage(err, t("monitors.checkFailed")));
    } finally {
      setChecking(false);
    }
  };

  const togglePause = async () => {
    if (!monitor) return;
    setPausing(true);
    try {
      const reply = await updateMonitor(monitor.id, { active: !monitor.active });
      setMonitor(reply.monitor);
      toast.success(t(reply.monitor.active ? "monitors.resumed" : "monitors.paused", { name: reply.monitor.name }));
    } catch (err) {
      toast.error(errorMessage(err, t("monitors.saveFailed")));
    } finally {
      setPausing(false);
    }
  };

  const { ask: askDelete, deletingId, dialog: deleteDialog } = useDeleteConfirmation<PublicMonitor>({
    section: "monitors",
    message: (m) => t("monitors.confirmDelete.message", { name: m.name }),
    remove: deleteMonitor,
    onDeleted: () => navigate("/monitors"),
  });

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

  if (loadError) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t("monitors.detailTitle")}</h1>
        <p role="alert" data-testid="monitor-load-error" className="text-sm text-red-600">
          {loadError}
        </p>
        <ButtonLink href="/monitors" variant="secondary">
          {t("monitors.backToList")}
        </ButtonLink>
      </div>
    );
  }
  if (!monitor) return <PageLoading />;
  if (gone) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{monitor.name}</h1>
        <p role="alert" data-testid="monitor-gone" className="text-sm text-slate-600">
          {t("monitors.detail.deletedElsewhere")}
        </p>
        <ButtonLink href="/monitors" variant="secondary">
          {t("monitors.backToList")}
        </ButtonLink>
      </div>
    );
  }

  const status = displayStatus(monitor);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="truncate text-2xl font-semibold tracking-tight text-slate-900" data-testid="monitor-name">
              {monitor.name}
            </h1>
            <TypeBadge type={monitor.type} size="md" data-testid="monitor-type" />
            <MonitorStatusBadge status={status} size="md" data-testid="monitor-status" />
            <LiveIndicator />
          </div>
          {monitor.tags.length > 0 && (
            <div className="mt-1.5 flex flex-wrap gap-1" data-testid="monitor-tags">
              {monitor.tags.map((tag) => (
                <TagChip key={tag} tag={tag} />
              ))}
            </div>
          )}
          <TargetLine monitor={monitor} />
          <p className="mt-1 text-xs text-slate-500" data-testid="monitor-last-check">
            {t("monitors.detail.lastCheck")}: <Ago at={monitor.lastCheckedAt} />
            {monitor.lastCheckedAt !== null && monitor.responseTime !== null && <> · {formatMs(monitor.responseTime)}</>}
            {monitor.httpStatus !== null && <> · HTTP {monitor.httpStatus}</>}
            {monitor.lastError && (
              <>
                {" · "}
                <span data-testid="monitor-last-error" className="font-medium text-red-600">
                  {translateCheckError(t, monitor.lastError)}
                </span>
              </>
            )}
            {monitor.active && monitor.consecutiveFailures > 0 && (
              <span className="ml-1 text-red-600"> · {t("monitors.detail.failuresInRow", { count: monitor.consecutiveFailures })}</span>
            )}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {monitor.type !== "push" && (
            // A push monitor is not checked by Vigil: it waits for calls.
            <Button busy={checking} onClick={() => void runCheck()} data-testid="monitor-check-button">
              {checking ? t("monitors.detail.checking") : t("monitors.detail.checkNow")}
            </Button>
          )}
          <Button variant="secondary" busy={pausing} onClick={() => void togglePause()} data-testid="monitor-pause-button">
            {monitor.active ? t("monitors.actions.pause") : t("monitors.actions.resume")}
          </Button>
<ButtonLink href={`/notifications?tab=monitors&monitor=${monitor.id}`} variant="secondary" title={t("notifications.linkTitle")} data-testid="notifications-link">
            <BellIcon className="size-4" />
            {t("notifications.link")}
          </ButtonLink>
          <ButtonLink href={`/monitors/edit/${monitor.id}`} variant="secondary" data-testid="monitor-edit-button">
            {t("common.edit")}
          </ButtonLink>
          <Button variant="dangerGhost" busy={deletingId !== null} onClick={() => askDelete(monitor)} data-testid="monitor-delete-button">
            {t("common.delete")}
          </Button>
        </div>
      </div>

      {checkResult && <CheckResultPanel result={checkResult} http={monitor.type === "http"} />}

      {monitor.type === "push" && <PushCard monitor={monitor} onChange={setMonitor} />}

      <Card data-testid="monitor-strip-card">
        <SectionTitle>{t("monitors.strip.title")}</SectionTitle>
        <div className="px-5 py-4 sm:px-6">
          {checks === null ? (
            <div className="h-7" />
          ) : checks.length === 0 ? (
            <p data-testid="monitor-strip-none" className="text-sm text-slate-500">
              {t("monitors.strip.none")}
            </p>
          ) : (
            <CheckStrip checks={checks} data-testid="monitor-strip" />
          )}
        </div>
      </Card>

      {historyError && (
        <p role="alert" data-testid="monitor-history-error" className="text-sm text-red-600">
          {historyError}
        </p>
      )}
      {history ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <HistoryCard title={t("monitors.detail.day")} window={history.day} daily={false} testId="day" />
          <HistoryCard title={t("monitors.detail.month")} window={history.month} daily testId="month" />
        </div>
      ) : (
        !historyError && <PageLoading />
      )}

      <Card data-testid="monitor-chart-card">
        <SectionTitle actions={<RangeTabs range={range} onChange={setRange} />}>{t("monitors.detail.chart.title")}</SectionTitle>
        <div className="px-3 py-4 sm:px-5">
          {seriesError ? (
            <p role="alert" data-testid="monitor-chart-error" className="px-2 py-8 text-center text-sm text-red-600">
              {seriesError}
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

      <DetailsCard monitor={monitor} />

      {deleteDialog}
    </div>
  );
}
