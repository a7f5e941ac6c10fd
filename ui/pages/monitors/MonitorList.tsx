import { EditorOnly } from "../../components/guards";
import { memo, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useLocation, useSearch } from "wouter";
import { errorMessage } from "../../api/errors";
import { checkMonitor, deleteMonitor, listMonitors, updateMonitor, type PublicMonitor, type RecentCheck } from "../../api/monitors";
import { Button, ButtonLink, buttonClass } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { useMediaQuery } from "../../components/hooks";
import { ChevronDownIcon, PauseIcon, PencilIcon, PlayIcon, PlusIcon, RefreshIcon, TrashIcon } from "../../components/icons";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { TagChip } from "../../components/Tag";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLive } from "../../state/live";
import { isAdmin } from "../../state/session";
import { translateCheckError } from "./checkError";
import { CheckStrip } from "./CheckStrip";
import { HeartbeatStrip } from "./list/HeartbeatStrip";
import { AvailabilityLegend } from "../../components/AvailabilityLegend";
import { ListToolbar, NoMatch } from "./list/ListToolbar";
import { createListStore, type ListStore } from "./list/store";
import { useVisibleChecks } from "./list/useVisibleChecks";
import { useWindowRows } from "./list/useWindowRows";
import {
  DEFAULT_VIEW,
  filterAndSort,
  listViewSearch,
  parseListView,
  statusCounts,
  tagsInUse,
  isFiltered,
  toggleSort,
  treeRows,
  type ListRow,
  type ListView,
  type SortKey,
} from "./listModel";
import { displayStatus, formatAvailability, formatMs } from "./model";
import { Ago, LiveIndicator, MonitorStatusBadge, TypeBadge, useCheckSummary } from "./parts";
import { intervalText } from "./intervals";

// The monitor list, built for hundreds to thousands of monitors:
// - the data sits in a store outside React (list/store.ts): a live check re-renders the one row showing that monitor,
//   and the list re-filters/re-sorts only when a status, the membership or (when sorted by them) the figures changed;
// - only the rows near the viewport are in the DOM (list/useWindowRows.ts), at a fixed height per layout;
// - search, status, sort and tags live in the URL (listModel.ts), so a view can be shared.

interface RowActions {
  /** Opens or closes a group's members. */
  toggleMembers: (id: number) => void;
  check: (id: number) => void;
  togglePause: (id: number) => void;
  remove: (id: number) => void;
}

type Phase = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded" };

/** Row heights (px): one line of columns from lg up; a card of stacked fields below. Each row is exactly this tall. */
export const ROW_HEIGHT = { table: 80, card: 220 } as const;

/**
 * The columns (the header and every row share them). From xl (1280 px) all seven with worded actions; from lg
 * (1024 px) to xl the compact table: no "Last checked" column and icon actions, so the whole row fits without a
 * sideways scroll on small laptops and landscape tablets; below lg, cards.
 */
const GRID =
  "lg:grid lg:grid-cols-[minmax(10rem,1fr)_8.5rem_9.5rem_5.5rem_6rem_10rem] xl:grid-cols-[minmax(12rem,1fr)_8.5rem_9.5rem_6rem_6.5rem_7rem_19.5rem] lg:items-center lg:gap-x-3 lg:px-4";
/** The "Last checked" cell and header: not in the compact table. */
// Mobile-first (lg:… xl:…) rather than max-xl: Chromium matches `max-xl`'s (max-width: calc(80rem - .001px)) at
// exactly 1280 px too, where the xl rules also apply.
const LAST_CHECKED = "lg:hidden xl:block";
const TH = "text-left text-xs font-semibold uppercase tracking-wide text-slate-500 whitespace-nowrap";
const CELL = "min-w-0 text-sm text-slate-700";
/** The column's name beside its value, on cards only (the header row is hidden there). */
const PHONE_LABEL = "mr-2 text-xs text-slate-400 lg:hidden";

export default function MonitorList() {
  const { t } = useTranslation();
  useDocumentTitle(t("monitors.title"));
  const summary = useCheckSummary();
  const store = useMemo(() => createListStore(), []);
  const [state, setState] = useState<Phase>({ phase: "loading" });
  const [busy, setBusy] = useState<Record<string, boolean>>({}); // "check-3", "pause-3"
  const deleted = useRef(new Set<number>());

  const load = useCallback(
    async (showLoading: boolean) => {
      if (showLoading) setState({ phase: "loading" });
      try {
        const reply = await listMonitors();
        store.setAll(reply.monitors.filter((m) => !deleted.current.has(m.id)));
        setState({ phase: "loaded" });
      } catch (err) {
        const message = errorMessage(err, t("monitors.fetchFailed"));
        // A failed background refresh keeps the rows shown.
        setState((s) => (showLoading || s.phase !== "loaded" ? { phase: "error", message } : s));
      }
    },
    [t, store],
  );

  useEffect(() => {
    void load(true);
  }, [load]);

  useLive("monitor.check", (data) => store.apply({ type: "monitor.check", data }));
  useLive("monitor.status", (data) => store.apply({ type: "monitor.status", data }));
  useLive("monitor.change", (data) => {
    if (data.action === "deleted") deleted.current.add(data.monitorId);
    store.apply({ type: "monitor.change", data });
  });
  useLive("maintenance.change", (data) => store.setMaintenance(data.monitors.entered, data.monitors.left));
  // (Re)connected: catch up on whatever happened while the socket was not open.
  useLive("hello", () => void load(false));

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
        if (store.has(m.id)) store.upsert(reply.monitor);
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
        if (store.has(m.id)) store.upsert(reply.monitor);
        toast.success(t(reply.monitor.active ? "monitors.resumed" : "monitors.paused", { name: m.name }));
      } catch (err) {
        toast.error(errorMessage(err, t("monitors.saveFailed")));
      }
    });

  const { ask: askDelete, deletingId, dialog: deleteDialog } = useDeleteConfirmation<PublicMonitor>({
    section: "monitors",
    message: (m) => t(m.type === "group" ? "monitors.confirmDelete.groupMessage" : "monitors.confirmDelete.message", { name: m.name }),
    remove: deleteMonitor,
    onDeleted: (id) => {
      deleted.current.add(id);
      store.remove(id);
    },
  });

  // Rows are memoized and read their monitor from the store: the handlers they get must not change identity.
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(() => new Set());
  const toggleMembers = (id: number) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const latest = useRef({ check, togglePause, askDelete, toggleMembers });
  latest.current = { check, togglePause, askDelete, toggleMembers };
  const rowActions = useMemo<RowActions>(() => {
    const withMonitor = (id: number, fn: (m: PublicMonitor) => void) => {
      const entry = store.get(id);
      if (entry) fn(entry.monitor);
    };
    return {
      toggleMembers: (id) => latest.current.toggleMembers(id),
      check: (id) => withMonitor(id, (m) => void latest.current.check(m)),
      togglePause: (id) => withMonitor(id, (m) => void latest.current.togglePause(m)),
      remove: (id) => withMonitor(id, (m) => latest.current.askDelete(m)),
    };
  }, [store]);

  // The view: parsed from the URL; every change replaces the history entry (typing must not stack entries).
  const search = useSearch();
  const view = useMemo(() => parseListView(search), [search]);
  const [, navigate] = useLocation();
  const setView = useCallback((next: ListView) => navigate(`/monitors${listViewSearch(next)}`, { replace: true }), [navigate]);
  const clearFilters = useCallback(() => setView({ ...DEFAULT_VIEW, sort: view.sort, dir: view.dir }), [setView, view.sort, view.dir]);

  // What the list depends on: the store's structure, plus its figures when sorted by them.
  const byFigures = view.sort === "responseTime" || view.sort === "uptime";
  const version = useSyncExternalStore(store.subscribeList, () => {
    const v = store.version();
    return byFigures ? `${v.structure}.${v.metrics}` : String(v.structure);
  });
  // The version is what says the monitors changed.
  const monitors = useMemo(() => store.monitors(), [store, version]);
  const shown = useMemo(() => filterAndSort(monitors, view), [monitors, view]);
  // Members under their groups; a filtered list is flat, so every match shows.
  const rows = useMemo(() => treeRows(shown, isFiltered(view), collapsed), [shown, view, collapsed]);
  const counts = useMemo(() => statusCounts(monitors, view), [monitors, view.q, view.tags]);
  const tags = useMemo(() => tagsInUse(monitors), [monitors]);
  const loaded = state.phase === "loaded";

  return (
    <div>
      <PageHeader
        title={t("monitors.title")}
        description={t("monitors.subtitle")}
        actions={
          <>
            <LiveIndicator />
            <EditorOnly>
              <ButtonLink href="/monitors/create" data-testid="monitor-create-button">
                <PlusIcon className="size-4" />
                {t("monitors.create")}
              </ButtonLink>
            </EditorOnly>
          </>
        }
      />
      <Card className="overflow-hidden">
        {state.phase === "loading" && <LoadingMessage data-testid="monitors-loading">{t("monitors.loading")}</LoadingMessage>}
        {state.phase === "error" && <LoadError data-testid="monitors-error" message={state.message} onRetry={() => void load(true)} />}
        {loaded && monitors.length === 0 && (
          <div data-testid="monitors-empty" className="flex flex-col items-center gap-4 px-6 py-14 text-center">
            <p className="text-sm text-slate-500">{t("monitors.empty")}</p>
            <ButtonLink href="/monitors/create" variant="secondary" size="sm">
              <PlusIcon className="size-4" />
              {t("monitors.create")}
            </ButtonLink>
            {isAdmin.value && (
              <Link href="/import/kuma" className="text-sm font-medium text-sky-700 hover:underline" data-testid="monitors-import-kuma">
                {t("import.card")}
              </Link>
            )}
          </div>
        )}
        {loaded && monitors.length > 0 && (
          <>
            <ListToolbar view={view} setView={setView} counts={counts} tags={tags} shown={shown.length} total={monitors.length} />
            {shown.length === 0 ? (
              <NoMatch view={view} onClear={clearFilters} />
            ) : (
              <MonitorTable
                store={store}
                rows={rows}
                collapsed={collapsed}
                view={view}
                setView={setView}
                busy={busy}
                deletingId={deletingId}
                actions={rowActions}
              />
            )}
          </>
        )}
      </Card>
      {/* The colours of the rows' 24-hour strips. */}
      {loaded && monitors.length > 0 && <AvailabilityLegend className="px-1" data-testid="monitors-legend" />}
      {deleteDialog}
    </div>
  );
}

/**
 * An ARIA table (role=table/row/cell: a CSS grid per row keeps every row at its fixed height) of which only the rows
 * near the viewport exist; aria-rowcount and aria-rowindex tell screen readers where they are in the whole list.
 */
function MonitorTable({
  store,
  rows,
  collapsed,
  view,
  setView,
  busy,
  deletingId,
  actions,
}: {
  store: ListStore;
  rows: ListRow[];
  collapsed: ReadonlySet<number>;
  view: ListView;
  setView: (next: ListView) => void;
  busy: Record<string, boolean>;
  deletingId: number | null;
  actions: RowActions;
}) {
  const { t } = useTranslation();
  const wide = useMediaQuery("(min-width: 1024px)");
  const rowHeight = wide ? ROW_HEIGHT.table : ROW_HEIGHT.card;
  const body = useRef<HTMLDivElement>(null);
  const shown = useMemo(() => rows.map((r) => r.monitor), [rows]);
  const { start, end, padTop, padBottom } = useWindowRows(body, shown.length, rowHeight, wide ? 8 : 4);
  useVisibleChecks(store, shown, start, end);

  const header = (key: SortKey | null, label: string, className = "") => {
    if (!key) {
      return (
        <div role="columnheader" className={`${TH} ${className}`}>
          {label}
        </div>
      );
    }
    const active = view.sort === key;
    return (
      <div role="columnheader" aria-sort={active ? (view.dir === "asc" ? "ascending" : "descending") : undefined} className={`${TH} ${className}`}>
        <button
          type="button"
          onClick={() => setView(toggleSort(view, key))}
          className={`inline-flex items-center gap-1 uppercase hover:text-slate-900 ${active ? "text-slate-900" : ""}`}
          data-testid={`monitors-sort-${key}`}
        >
          {label}
          <span aria-hidden="true" className={active ? "" : "invisible"}>
            {view.dir === "asc" ? "↑" : "↓"}
          </span>
        </button>
      </div>
    );
  };

  return (
    <div className="lg:overflow-x-auto">
      <div role="table" aria-label={t("monitors.list.table")} aria-rowcount={shown.length + 1} data-testid="monitors-table" className="lg:min-w-[55.25rem] xl:min-w-[75.5rem]">
        <div role="rowgroup" className="hidden bg-slate-50 lg:block" data-testid="monitors-table-head">
          <div role="row" aria-rowindex={1} className={`${GRID} border-b border-slate-200 py-3`}>
            {header("name", t("monitors.columns.name"))}
            {header("status", t("monitors.columns.status"))}
            {header(null, t("monitors.list.heartbeatColumn"))}
            {header("responseTime", t("monitors.columns.responseTime"), "justify-self-end text-right")}
            {header("uptime", t("monitors.columns.uptime"), "justify-self-end text-right")}
            {header(null, t("monitors.columns.lastChecked"), LAST_CHECKED)}
            {header(null, t("monitors.columns.actions"), "text-right")}
          </div>
        </div>
        <div role="rowgroup" ref={body} style={{ paddingTop: padTop, paddingBottom: padBottom }} data-rows={end - start}>
          {rows.slice(start, end).map((row, i) => {
            const id = row.monitor.id;
            return (
              <MonitorRow
                key={id}
                id={id}
                depth={row.depth}
                members={row.members}
                toggles={row.toggles}
                open={!collapsed.has(id)}
                store={store}
                rowIndex={start + i + 2}
                height={rowHeight}
                checking={!!busy[`check-${id}`]}
                pausing={!!busy[`pause-${id}`]}
                deleting={deletingId === id}
                actions={actions}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

/**
 * A row action's label: its words, or in the compact table (lg to xl) its icon, the words kept for screen readers
 * (and in the button's title for a tooltip). While the action runs the button's spinner takes the icon's place.
 */
function ActionLabel({ icon: Icon, text, busy = false }: { icon: (p: { className?: string }) => ReactNode; text: string; busy?: boolean }) {
  return (
    <>
      {!busy && <Icon className="hidden size-4 lg:block xl:hidden" />}
      <span className="lg:sr-only xl:not-sr-only">{text}</span>
    </>
  );
}

/** http: method and URL; tcp: host:port; dns: name and record; push: when it last called. */
function Target({ m, members }: { m: PublicMonitor; members: number }) {
  const { t } = useTranslation();
  if (m.type === "group") return <span>{t("monitors.group.memberCount", { count: members })}</span>;
  if (m.type === "push") return <Ago at={m.lastPushAt} never={t("monitors.list.noPush")} phrase="monitors.list.lastPush" />;
  return (
    <span title={m.target}>
      {m.type === "http" && <span className="mr-1.5">{m.method}</span>}
      {m.target}
    </span>
  );
}

const NO_CHECKS: RecentCheck[] = [];

const MonitorRow = memo(function MonitorRow({
  id,
  depth,
  members,
  toggles,
  open,
  store,
  rowIndex,
  height,
  checking,
  pausing,
  deleting,
  actions,
}: {
  id: number;
  /** How deep in groups (indented); members: a group's members listed under it (0: no toggle). */
  depth: number;
  members: number;
  toggles: boolean;
  open: boolean;
  store: ListStore;
  rowIndex: number;
  height: number;
  checking: boolean;
  pausing: boolean;
  deleting: boolean;
  actions: RowActions;
}) {
  const { t } = useTranslation();
  const subscribe = useCallback((fn: () => void) => store.subscribeRow(id, fn), [store, id]);
  const entry = useSyncExternalStore(subscribe, () => store.get(id));
  if (!entry) return null;
  const m = entry.monitor;
  const { type, tags } = m;
  const status = displayStatus(m);
  const reason = m.active && m.status === "down" && m.lastError ? translateCheckError(t, m.lastError) : null;
  const pauseText = m.active ? t("monitors.actions.pause") : t("monitors.actions.resume");
  return (
    <div
      role="row"
      aria-rowindex={rowIndex}
      style={{ height }}
      data-testid={`monitor-row-${id}`}
      data-status={status}
      className={`${GRID} grid grid-cols-2 content-start gap-x-4 gap-y-2 overflow-hidden border-b border-slate-100 bg-white px-4 py-4 hover:bg-slate-50/60 lg:content-center lg:py-0`}
    >
      <div role="cell" className={`${CELL} col-span-2 lg:col-span-1`} style={depth ? { paddingLeft: `${Math.min(depth, 6) * 1.25}rem` } : undefined} data-depth={depth}>
        <div className="flex min-w-0 items-center gap-2">
          {toggles && (
            <button
              type="button"
              onClick={() => actions.toggleMembers(id)}
              aria-expanded={open}
              title={t(open ? "monitors.group.collapse" : "monitors.group.expand", { name: m.name })}
              aria-label={t(open ? "monitors.group.collapse" : "monitors.group.expand", { name: m.name })}
              data-testid={`monitor-toggle-${id}`}
              className="-ml-1 rounded p-0.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
            >
              <ChevronDownIcon className={`size-4 transition-transform ${open ? "" : "-rotate-90"}`} />
            </button>
          )}
          <TypeBadge type={type} data-testid={`monitor-type-${id}`} />
          <Link href={`/monitors/${id}`} data-testid={`monitor-link-${id}`} className="truncate font-medium text-slate-900 hover:text-indigo-600" title={m.name}>
            {m.name}
          </Link>
        </div>
        {/* The target cut to fit, then how often it is checked, always in full. */}
        <div className="mt-0.5 flex min-w-0 gap-1.5 font-mono text-[11px] leading-4 text-slate-400">
          <div className="min-w-0 truncate" data-testid={`monitor-target-${id}`}>
            <Target m={m} members={members} />
          </div>
          {m.type !== "group" && (
            <span className="shrink-0" data-testid={`monitor-interval-${id}`}>
              · {t("monitors.list.every", { every: intervalText(t, m.intervalSeconds) })}
            </span>
          )}
        </div>
        {/* One line: chips that do not fit wrap onto a hidden second line rather than being cut; all are in the title. */}
        <div className="mt-1 flex h-5 min-w-0 flex-wrap gap-1 overflow-hidden" title={tags.join(", ") || undefined} data-testid={`monitor-tags-${id}`}>
          {tags.map((tag) => (
            <TagChip key={tag} tag={tag} />
          ))}
        </div>
      </div>
      <div role="cell" className={`${CELL} col-span-2 flex min-w-0 items-center gap-2 lg:col-span-1 lg:block`}>
        <MonitorStatusBadge status={status} data-testid={`monitor-status-${id}`} />
        {reason && (
          <span className="block min-w-0 truncate text-xs text-red-700 lg:mt-1" title={reason} data-testid={`monitor-reason-${id}`}>
            {reason}
          </span>
        )}
      </div>
      <div role="cell" className={`${CELL} order-1 flex flex-col items-end justify-center gap-1 lg:order-none lg:items-start`}>
        {/* Grey cells until the row's checks arrive (fetched once it is in view). */}
        <CheckStrip checks={entry.checks ?? NO_CHECKS} size="xs" data-testid={`monitor-checks-${id}`} />
        <HeartbeatStrip heartbeat={entry.heartbeat} hour={entry.hour} data-testid={`monitor-heartbeat-${id}`} />
      </div>
      <div role="cell" className={`${CELL} whitespace-nowrap tabular-nums lg:text-right`}>
        <span className={PHONE_LABEL}>{t("monitors.columns.responseTime")}</span>
        <span data-testid={`monitor-response-${id}`}>{formatMs(m.responseTime, t("common.dash"))}</span>
      </div>
      <div role="cell" className={`${CELL} whitespace-nowrap tabular-nums lg:text-right`}>
        <span className={PHONE_LABEL}>{t("monitors.columns.uptime")}</span>
        <span data-testid={`monitor-uptime-${id}`}>{formatAvailability(m.uptime24h, t("common.dash"))}</span>
      </div>
      <div role="cell" className={`${CELL} truncate whitespace-nowrap text-slate-500 ${LAST_CHECKED}`}>
        <span className={PHONE_LABEL}>{t("monitors.columns.lastChecked")}</span>
        <span data-testid={`monitor-checked-${id}`}>
          <Ago at={m.lastCheckedAt} />
        </span>
      </div>
      <div role="cell" className={`${CELL} order-2 col-span-2 lg:order-none lg:col-span-1`}>
        <EditorOnly>
        <div className="flex gap-1 lg:justify-end">
          {type !== "push" && type !== "group" && (
            // A push monitor is not checked by Vigil: it waits for calls (as on its detail page); a group follows its members.
            <Button variant="secondary" size="sm" busy={checking} onClick={() => actions.check(id)} title={t("monitors.actions.check")} data-testid={`monitor-check-${id}`}>
              <ActionLabel icon={RefreshIcon} busy={checking} text={checking ? t("monitors.actions.checking") : t("monitors.actions.check")} />
            </Button>
          )}
          <Button variant="ghost" size="sm" busy={pausing} onClick={() => actions.togglePause(id)} title={pauseText} data-testid={`monitor-pause-${id}`}>
            <ActionLabel icon={m.active ? PauseIcon : PlayIcon} busy={pausing} text={pauseText} />
          </Button>
          <Link href={`/monitors/edit/${id}`} className={buttonClass("ghost", "sm")} title={t("common.edit")} data-testid={`monitor-edit-${id}`}>
            <ActionLabel icon={PencilIcon} text={t("common.edit")} />
          </Link>
          <Button variant="dangerGhost" size="sm" busy={deleting} onClick={() => actions.remove(id)} title={t("common.delete")} data-testid={`monitor-delete-${id}`}>
            <ActionLabel icon={TrashIcon} busy={deleting} text={t("common.delete")} />
          </Button>
        </div>
        </EditorOnly>
      </div>
    </div>
  );
});
