import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation, useParams } from "wouter";
import { errorMessage } from "../../api/errors";
import {
  checkMonitor,
  deleteMonitor,
  getMonitor,
  getMonitorHistory,
  getMonitorSeries,
  getRecentChecks,
  updateMonitor,
  type CheckResult,
  type MonitorHistory,
  type MonitorSeries,
  type PublicMonitor,
  type RecentCheck,
  type SeriesRange,
} from "../../api/monitors";
import { appendCheck, CheckStrip } from "./CheckStrip";
import { Button, ButtonLink } from "../../components/Button";
import { TagChip } from "../../components/Tag";
import { BellIcon } from "../../components/icons";
import { Card } from "../../components/Card";
import { usePolling } from "../../components/hooks";
import { PageLoading } from "../../components/PageLoading";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLive, useLiveChecks } from "../../state/live";
import { applyCheck, applyStatus, displayStatus, formatMs } from "./model";
import { Ago, LiveIndicator, MonitorStatusBadge, TypeBadge, useCheckSummary } from "./parts";
import { translateCheckError } from "./checkError";
import { BadgeCard } from "./detail/BadgeCard";
import { ExportCard } from "./detail/ExportCard";
import { BudgetCard } from "./detail/BudgetCard";
import { useCatchUp } from "./detail/catchUp";
import { CheckResultPanel } from "./detail/CheckResultPanel";
import { DetailsCard } from "./detail/DetailsCard";
import { HistoryCard } from "./detail/HistoryCard";
import { AvailabilityLegend } from "../../components/AvailabilityLegend";
import { LocationsCard } from "./detail/LocationsCard";
import { MembersCard, ParentLine } from "./detail/MembersCard";
import { SectionTitle } from "./detail/layout";
import { PushCard } from "./detail/PushCard";
import { ManualCard } from "./detail/ManualCard";
import { ScreenshotsCard } from "./detail/ScreenshotsCard";
import { runsOnAgents } from "../../../server/monitors/public";
import { ResponseChartCard } from "./detail/ResponseChart";
import { TargetLine } from "./detail/TargetLine";
import { MaintenancePanel } from "../maintenance/MaintenancePanel";
import { UnreachableNotice } from "./detail/Dependencies";
import { parseCheckError } from "../../../server/monitors/check-errors";
import { OutageOffer } from "../incidents/OutageOffer";
import { OpenProblems } from "../problems/parts";
import { EditorOnly } from "../../components/guards";
import { ManagedBadge, useManagedMarks } from "../../components/Managed";
import { EscalationLine } from "../escalation/EscalationLine";

/** History bars slide with time: refreshed this often even without checks. */
const HISTORY_POLL_MS = 60_000;
/** After pushed checks, history and chart reload at most this often. */
const RELOAD_THROTTLE_MS = 3_000;

export default function MonitorDetail() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const { id: rawId } = useParams<{ id: string }>();
  const id = Number(rawId);
  useManagedMarks();
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

  // A check the header shows but the history or the strip lacks. A view without any check (a new monitor's first
  // one ended as the page loaded) is fetched at once rather than after the throttle: "0 checks" beside a header
  // showing one is wrong, not merely late.
  const headerCheck = monitor && !gone ? monitor.lastCheckedAt : null;
  const historyLatest = history ? (history.day.latest?.time ?? null) : undefined;
  const catchUpHistory = useCallback(() => {
    if (historyLatest !== null) return scheduleReload();
    void latest.current.loadHistory();
    void latest.current.loadSeries();
  }, [historyLatest, scheduleReload]);
  useCatchUp(headerCheck, historyLatest, catchUpHistory);
  useCatchUp(headerCheck, checks ? (checks.at(-1)?.time ?? null) : undefined, loadChecks);

  // Whether its failures are held by a monitor it depends on: a check event does not carry which one, the monitor
  // read again does (after such a check, and when one it depends on changes status).
  const shown = useRef(monitor);
  shown.current = monitor;
  // A live message applied while a re-read was on its way may be newer than the reply (a loaded server answers the
  // GET after the socket's message): such a reply is not shown, the monitor is read again (at most a few times).
  const liveSeq = useRef(0);
  const reread = useCallback(
    (tries = 3) => {
      const seq = liveSeq.current;
      getMonitor(id)
        .then((reply) => {
          if (liveSeq.current === seq) setMonitor(reply.monitor);
          else if (tries > 1) reread(tries - 1);
        })
        .catch(() => {});
    },
    [id],
  );
  const watched = useMemo(() => [id], [id]);
  useLiveChecks(
    watched,
    (data) => {
      liveSeq.current++;
      const held = data.result.status === "down" && parseCheckError(data.result.error ?? "").code === "UNREACHABLE";
      setMonitor((m) => (m ? { ...applyCheck(m, data), unreachable: held ? m.unreachable : null } : m));
      if (held && !shown.current?.unreachable) reread();
      addCheck(data.result);
      scheduleReload();
    },
    ready,
  );
  useLive(
    "monitor.status",
    (data) => {
      if (data.monitorId === id) {
        liveSeq.current++;
        setMonitor((m) => (m ? applyStatus(m, data) : m));
      } else if (shown.current?.dependsOn.includes(data.monitorId)) reread();
    },
    ready,
  );
  useLive(
    "monitor.change",
    (data) => {
      if (data.monitorId !== id) return;
      liveSeq.current++;
      if (data.action === "deleted") setGone(true);
      else if (data.monitor) setMonitor(data.monitor);
    },
    ready,
  );
  useLive(
    "maintenance.change",
    (data) => {
      const on = data.monitors.entered.includes(id) ? true : data.monitors.left.includes(id) ? false : null;
      if (on === null) return;
      // Newer than a re-read in flight (the one `hello` asks for as the page opens): that reply must not undo it.
      liveSeq.current++;
      setMonitor((m) => (m ? { ...m, maintenance: on } : m));
    },
    ready,
  );
  useLive(
    "hello",
    () => {
      reread();
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
    message: (m) => t(m.type === "group" ? "monitors.confirmDelete.groupMessage" : "monitors.confirmDelete.message", { name: m.name }),
    remove: deleteMonitor,
    onDeleted: () => navigate("/monitors"),
  });

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
            <ManagedBadge what="monitor" id={monitor.id} testId="monitor-managed" />
          </div>
          {monitor.tags.length > 0 && (
            <div className="mt-1.5 flex flex-wrap gap-1" data-testid="monitor-tags">
              {monitor.tags.map((tag) => (
                <TagChip key={tag} tag={tag} />
              ))}
            </div>
          )}
          {monitor.type !== "group" && <TargetLine monitor={monitor} />}
          <ParentLine monitor={monitor} />
          <UnreachableNotice monitor={monitor} />
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
          <EscalationLine type="monitor" id={monitor.id} troubled={status === "down"} />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <EditorOnly>
            {monitor.type !== "push" && monitor.type !== "group" && monitor.type !== "manual" && (
              // A push monitor is not checked by Vigil: it waits for calls; a group follows its members; a manual one is set.
              <Button busy={checking} onClick={() => void runCheck()} data-testid="monitor-check-button">
                {checking ? t("monitors.detail.checking") : t("monitors.detail.checkNow")}
              </Button>
            )}
            <Button variant="secondary" busy={pausing} onClick={() => void togglePause()} data-testid="monitor-pause-button">
              {monitor.active ? t("monitors.actions.pause") : t("monitors.actions.resume")}
            </Button>
          </EditorOnly>
          <ButtonLink href={`/notifications?tab=monitors&monitor=${monitor.id}`} variant="secondary" title={t("notifications.linkTitle")} data-testid="notifications-link">
            <BellIcon className="size-4" />
            {t("notifications.link")}
          </ButtonLink>
          <ButtonLink href={`/reports?kind=${monitor.type === "group" ? "group" : "monitor"}&ref=${monitor.id}`} variant="secondary" data-testid="monitor-report-link">
            {t("reports.openReport")}
          </ButtonLink>
          <EditorOnly>
            <ButtonLink href={`/monitors/edit/${monitor.id}`} variant="secondary" data-testid="monitor-edit-button">
              {t("common.edit")}
            </ButtonLink>
            <Button variant="dangerGhost" busy={deletingId !== null} onClick={() => askDelete(monitor)} data-testid="monitor-delete-button">
              {t("common.delete")}
            </Button>
          </EditorOnly>
        </div>
      </div>

      <OpenProblems type="monitor" id={monitor.id} />

      <OutageOffer monitorId={monitor.id} down={status === "down"} />

      {checkResult && <CheckResultPanel result={checkResult} http={monitor.type === "http"} />}

      {monitor.type === "push" && <PushCard monitor={monitor} onChange={setMonitor} />}

      {monitor.type === "group" && <MembersCard group={monitor} />}

      {monitor.type === "manual" && <ManualCard monitor={monitor} onChange={setMonitor} />}

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

      {monitor.type === "browser" && <ScreenshotsCard monitor={monitor} />}

      {historyError && (
        <p role="alert" data-testid="monitor-history-error" className="text-sm text-red-600">
          {historyError}
        </p>
      )}
      {history ? (
        <div className="space-y-2">
          <div className="grid gap-6 lg:grid-cols-2">
            <HistoryCard title={t("monitors.detail.day")} window={history.day} daily={false} testId="day" />
            <HistoryCard title={t("monitors.detail.month")} window={history.month} daily testId="month" />
          </div>
          <AvailabilityLegend className="px-1" data-testid="history-legend" />
        </div>
      ) : (
        !historyError && <PageLoading />
      )}

      <ResponseChartCard range={range} onRange={setRange} series={series} error={seriesError} />

      {monitor.objective !== null && <BudgetCard monitor={monitor} />}

      {runsOnAgents(monitor.type) && <LocationsCard monitor={monitor} />}

      <MaintenancePanel target={{ type: "monitor", id: monitor.id, name: monitor.name }} />

      <DetailsCard monitor={monitor} />

      <BadgeCard monitor={monitor} />

      {monitor.type !== "group" && <ExportCard monitor={monitor} />}

      {deleteDialog}
    </div>
  );
}
