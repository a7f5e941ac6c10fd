import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useSearch } from "wouter";
import { errorMessage } from "../../api/errors";
import { checkMonitor, deleteMonitor, getAllRecentChecks, listMonitors, updateMonitor, type PublicMonitor, type RecentCheck } from "../../api/monitors";
import { appendCheck, CheckStrip } from "./CheckStrip";
import { Button, ButtonLink, buttonClass } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { PlusIcon } from "../../components/icons";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLive } from "../../state/live";
import { applyPush, displayStatus, formatAvailability, formatMs, parseStatusFilter, sortForTriage, STATUS_FILTERS, type DisplayStatus, type MonitorPush } from "./model";
import { Ago, LiveIndicator, MonitorStatusBadge, useCheckSummary } from "./parts";
import { translateCheckError } from "./checkError";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { FilterPills, type FilterOption } from "../../components/FilterPills";

const EMPTY: PublicMonitor[] = [];
const NO_CHECKS: RecentCheck[] = [];

interface RowActions {
  check: (m: PublicMonitor) => void;
  togglePause: (m: PublicMonitor) => void;
  remove: (m: PublicMonitor) => void;
}

type ListState = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; monitors: PublicMonitor[] };

const TH = "px-3 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 whitespace-nowrap";
const TD = "block text-sm text-slate-700 whitespace-nowrap md:table-cell md:px-3 md:py-3";
/** The column's name beside its value, on phones only (the table header is hidden there). */
const PHONE_LABEL = "mr-2 text-xs text-slate-400 md:hidden";

export default function MonitorList() {
  const { t } = useTranslation();
  useDocumentTitle(t("monitors.title"));
  const summary = useCheckSummary();
  const [state, setState] = useState<ListState>({ phase: "loading" });
  const [busy, setBusy] = useState<Record<string, boolean>>({}); // "check-3", "pause-3"
  const deleted = useRef(new Set<number>());

  const load = useCallback(
    async (showLoading: boolean) => {
      if (showLoading) setState({ phase: "loading" });
      try {
        const reply = await listMonitors();
        const monitors = (reply.monitors ?? []).filter((m) => !deleted.current.has(m.id));
        setState({ phase: "loaded", monitors });
      } catch (err) {
        const message = errorMessage(err, t("monitors.fetchFailed"));
        // A failed background refresh keeps the rows shown.
        setState((s) => (showLoading || s.phase !== "loaded" ? { phase: "error", message } : s));
      }
    },
    [t],
  );

  useEffect(() => {
    void load(true);
  }, [load]);

  const apply = useCallback((push: MonitorPush) => {
    if (push.type === "monitor.change" && push.data.action === "deleted") deleted.current.add(push.data.monitorId);
    setState((s) => (s.phase === "loaded" ? { ...s, monitors: applyPush(s.monitors, push) } : s));
  }, []);
  const replaceMonitor = (monitor: PublicMonitor) => apply({ type: "monitor.change", data: { action: "updated", monitorId: monitor.id, monitor } });

  // The 50-check strips: read once (and after a reconnect), then fed by the pushed checks.
  const [strips, setStrips] = useState<Record<number, RecentCheck[]>>({});
  const loadStrips = useCallback(() => {
    getAllRecentChecks()
      .then((reply) => setStrips(reply.checks))
      .catch(() => {}); // the strips are an extra: the list works without them
  }, []);
  useEffect(loadStrips, [loadStrips]);
  const addToStrip = useCallback((monitorId: number, check: RecentCheck) => {
    setStrips((s) => ({ ...s, [monitorId]: appendCheck(s[monitorId], check) }));
  }, []);

  useLive("monitor.check", (data) => {
    apply({ type: "monitor.check", data });
    addToStrip(data.monitorId, data.result);
  });
  useLive("monitor.status", (data) => apply({ type: "monitor.status", data }));
  useLive("monitor.change", (data) => apply({ type: "monitor.change", data }));
  // (Re)connected: catch up on whatever happened while the socket was not open.
  useLive("hello", () => {
    void load(false);
    loadStrips();
  });

  const withBusy = async (key: string, work: () => Promise<void>) => {
    setBusy((b) => ({ ...b, [key]: true }));
    try {
      await work();
    } finally {
      setBusy((b) => ({ ...b, [key]: false }));
    }
  };

  const check = (m: PublicMonitor) =>
    withBusy(`check-${m.id}`, async () => {
      try {
        const reply = await checkMonitor(m.id);
        replaceMonitor(reply.monitor);
        addToStrip(m.id, reply.result);
        const text = t(reply.result.status === "up" ? "monitors.checkUp" : "monitors.checkDown", { name: m.name, detail: summary(reply.result) });
        if (reply.result.status === "up") toast.success(text);
        else toast.error(text);
      } catch (err) {
        toast.error(errorMessage(err, t("monitors.checkFailed")));
      }
    });

  const togglePause = (m: PublicMonitor) =>
    withBusy(`pause-${m.id}`, async () => {
      try {
        const reply = await updateMonitor(m.id, { active: !m.active });
        replaceMonitor(reply.monitor);
        toast.success(t(reply.monitor.active ? "monitors.resumed" : "monitors.paused", { name: m.name }));
      } catch (err) {
        toast.error(errorMessage(err, t("monitors.saveFailed")));
      }
    });

  const { ask: askDelete, deletingId, dialog: deleteDialog } = useDeleteConfirmation<PublicMonitor>({
    section: "monitors",
    message: (m) => t("monitors.confirmDelete.message", { name: m.name }),
    remove: deleteMonitor,
    onDeleted: (id) => apply({ type: "monitor.change", data: { action: "deleted", monitorId: id } }),
  });

  // Rows are memoized: a live check re-renders its own row only, so the handlers they get must not change identity.
  const latest = useRef({ check, togglePause, askDelete });
  latest.current = { check, togglePause, askDelete };
  const rowActions = useMemo<RowActions>(
    () => ({
      check: (m) => void latest.current.check(m),
      togglePause: (m) => void latest.current.togglePause(m),
      remove: (m) => latest.current.askDelete(m),
    }),
    [],
  );

  const filter = parseStatusFilter(useSearch());
  const monitors = state.phase === "loaded" ? state.monitors : EMPTY;
  const shown = useMemo(() => {
    const sorted = sortForTriage(monitors);
    return filter ? sorted.filter((m) => displayStatus(m) === filter) : sorted;
  }, [monitors, filter]);

  return (
    <div>
      <PageHeader
        title={t("monitors.title")}
        description={t("monitors.subtitle")}
        actions={
          <>
            <LiveIndicator />
            <ButtonLink href="/monitors/create" data-testid="monitor-create-button">
              <PlusIcon className="size-4" />
              {t("monitors.create")}
            </ButtonLink>
          </>
        }
      />
      <Card className="overflow-hidden">
        {state.phase === "loading" && (
          <LoadingMessage data-testid="monitors-loading">{t("monitors.loading")}</LoadingMessage>
        )}
        {state.phase === "error" && (
          <LoadError data-testid="monitors-error" message={state.message} onRetry={() => void load(true)} />
        )}
        {state.phase === "loaded" && state.monitors.length === 0 && (
          <div data-testid="monitors-empty" className="flex flex-col items-center gap-4 px-6 py-14 text-center">
            <p className="text-sm text-slate-500">{t("monitors.empty")}</p>
            <ButtonLink href="/monitors/create" variant="secondary" size="sm">
              <PlusIcon className="size-4" />
              {t("monitors.create")}
            </ButtonLink>
          </div>
        )}
        {state.phase === "loaded" && state.monitors.length > 0 && (
          <>
            <StatusFilter monitors={state.monitors} value={filter} />
            {shown.length === 0 ? (
              <p data-testid="monitors-filter-empty" className="px-6 py-12 text-center text-sm text-slate-500">
                {t("monitors.filter.empty")}
              </p>
            ) : (
              // One table; below md each row is laid out as a card (every column kept, labelled), so phones scroll
              // vertically only.
              <div className="md:overflow-x-auto">
                <table data-testid="monitors-table" className="block min-w-full md:table md:divide-y md:divide-slate-200">
                  <thead className="hidden bg-slate-50 md:table-header-group">
                    <tr>
                      <th scope="col" className={`${TH} pl-4`}>{t("monitors.columns.name")}</th>
                      <th scope="col" className={`${TH} hidden lg:table-cell`}>{t("monitors.columns.url")}</th>
                      <th scope="col" className={TH}>{t("monitors.columns.status")}</th>
                      <th scope="col" className={`${TH} text-right`}>{t("monitors.columns.responseTime")}</th>
                      <th scope="col" className={`${TH} text-right`}>{t("monitors.columns.uptime")}</th>
                      <th scope="col" className={TH}>{t("monitors.columns.lastChecked")}</th>
                      <th scope="col" className={`${TH} pr-4 text-right`}>{t("monitors.columns.actions")}</th>
                    </tr>
                  </thead>
                  <tbody className="block divide-y divide-slate-100 bg-white md:table-row-group">
                    {shown.map((m) => (
                      <MonitorRow
                        key={m.id}
                        monitor={m}
                        checks={strips[m.id] ?? NO_CHECKS}
                        checking={!!busy[`check-${m.id}`]}
                        pausing={!!busy[`pause-${m.id}`]}
                        deleting={deletingId === m.id}
                        actions={rowActions}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </Card>
      {deleteDialog}
    </div>
  );
}

/** All / Down / Pending / Up / Paused with their counts; the choice lives in the URL (`?status=down`) to be shared. */
function StatusFilter({ monitors, value }: { monitors: PublicMonitor[]; value: DisplayStatus | null }) {
  const { t } = useTranslation();
  const counts = useMemo(() => {
    const c: Record<DisplayStatus, number> = { down: 0, pending: 0, up: 0, paused: 0 };
    for (const m of monitors) c[displayStatus(m)]++;
    return c;
  }, [monitors]);
  const options: FilterOption[] = [
    { key: null, label: t("monitors.filter.all"), count: monitors.length },
    ...STATUS_FILTERS.map((key) => ({ key, label: t(`monitors.status.${key}`), count: counts[key] })),
  ];
  return (
    <FilterPills base="/monitors" label={t("monitors.filter.label")} options={options} value={value} className="border-b border-slate-200 px-4 py-3" testId="monitors-filter" />
  );
}

const MonitorRow = memo(function MonitorRow({
  monitor: m,
  checks,
  checking,
  pausing,
  deleting,
  actions,
}: {
  monitor: PublicMonitor;
  checks: RecentCheck[];
  checking: boolean;
  pausing: boolean;
  deleting: boolean;
  actions: RowActions;
}) {
  const { t } = useTranslation();
  return (
    <tr data-testid={`monitor-row-${m.id}`} className="grid grid-cols-2 gap-x-4 gap-y-2 px-4 py-4 hover:bg-slate-50/60 md:table-row md:p-0">
      <td className={`${TD} col-span-2 min-w-0 md:max-w-52 md:pl-4`}>
        <Link href={`/monitors/${m.id}`} data-testid={`monitor-link-${m.id}`} className="block truncate font-medium text-slate-900 hover:text-indigo-600" title={m.name}>
          {m.name}
        </Link>
        {/* Below lg: the URL under the name instead of its own column. */}
        <span className="block truncate font-mono text-[11px] text-slate-400 lg:hidden">
          <span className="mr-1.5">{m.method}</span>
          {m.url}
        </span>
      </td>
      <td className={`${TD} hidden max-w-60 lg:table-cell`}>
        <span className="block truncate font-mono text-xs text-slate-500" title={m.url}>
          <span className="mr-1.5 text-slate-400">{m.method}</span>
          {m.url}
        </span>
      </td>
      <td className={`${TD} col-span-2 min-w-0`}>
        <MonitorStatusBadge status={displayStatus(m)} data-testid={`monitor-status-${m.id}`} />
        {m.active && m.status === "down" && m.lastError && (
          <span className="mt-1 block truncate text-xs text-red-700 md:max-w-48" title={translateCheckError(t, m.lastError)} data-testid={`monitor-reason-${m.id}`}>
            {translateCheckError(t, m.lastError)}
          </span>
        )}
      </td>
      <td className={`${TD} tabular-nums md:text-right`}>
        <span className={PHONE_LABEL}>{t("monitors.columns.responseTime")}</span>
        <span data-testid={`monitor-response-${m.id}`}>{formatMs(m.responseTime, t("common.dash"))}</span>
      </td>
      <td className={`${TD} tabular-nums md:text-right`}>
        <span className={PHONE_LABEL}>{t("monitors.columns.uptime")}</span>
        <span data-testid={`monitor-uptime-${m.id}`}>{formatAvailability(m.uptime24h, t("common.dash"))}</span>
      </td>
      <td className={`${TD} col-span-2 text-slate-500`}>
        <span className={PHONE_LABEL}>{t("monitors.columns.lastChecked")}</span>
        <span data-testid={`monitor-checked-${m.id}`}>
          <Ago at={m.lastCheckedAt} />
        </span>
        <div className="mt-1.5">
          <CheckStrip checks={checks} size="sm" data-testid={`monitor-strip-${m.id}`} />
        </div>
      </td>
      <td className={`${TD} col-span-2 md:pr-4 md:text-right`}>
        <div className="flex flex-wrap gap-1 md:justify-end">
          <Button variant="secondary" size="sm" busy={checking} onClick={() => actions.check(m)} data-testid={`monitor-check-${m.id}`}>
            {checking ? t("monitors.actions.checking") : t("monitors.actions.check")}
          </Button>
          <Button variant="ghost" size="sm" busy={pausing} onClick={() => actions.togglePause(m)} data-testid={`monitor-pause-${m.id}`}>
            {m.active ? t("monitors.actions.pause") : t("monitors.actions.resume")}
          </Button>
          <Link href={`/monitors/edit/${m.id}`} className={buttonClass("ghost", "sm")} data-testid={`monitor-edit-${m.id}`}>
            {t("common.edit")}
          </Link>
          <Button variant="dangerGhost" size="sm" busy={deleting} onClick={() => actions.remove(m)} data-testid={`monitor-delete-${m.id}`}>
            {t("common.delete")}
          </Button>
        </div>
      </td>
    </tr>
  );
});
