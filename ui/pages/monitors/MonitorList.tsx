import { EditorOnly } from "../../components/guards";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useLocation, useSearch } from "wouter";
import { errorMessage } from "../../api/errors";
import { checkMonitor, deleteMonitor, getMonitorPage, updateMonitor, type PublicMonitor } from "../../api/monitors";
import { ButtonLink } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { useMediaQuery } from "../../components/hooks";
import { PlusIcon } from "../../components/icons";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLive, useLiveChecks } from "../../state/live";
import { isAdmin } from "../../state/session";
import { AvailabilityLegend } from "../../components/AvailabilityLegend";
import { ListToolbar, NoMatch } from "./list/ListToolbar";
import { createPagedList, placeAt, type PagedList, type PagedSnapshot } from "./list/pagedList";
import { createListStore, type ListStore } from "./list/store";
import { useVisibleChecks } from "./list/useVisibleChecks";
import { useWindowRows } from "./list/useWindowRows";
import { DEFAULT_VIEW, listViewSearch, parseListView, isFiltered, toggleSort, type ListView, type SortKey } from "./listModel";
import { LiveIndicator, useCheckSummary } from "./parts";

import { GRID, LAST_CHECKED, MonitorRow, RowPlaceholder, type RowActions } from "./list/MonitorRow";
import { useManagedMarks } from "../../components/Managed";

// The monitor list, built for 100 000 monitors:
// - the server searches, filters, sorts and counts (GET /api/monitors/page); the screen holds the rows around the
//   viewport (list/pagedList.ts) and only the rows near the viewport are in the DOM (list/useWindowRows.ts), at a
//   fixed height per layout;
// - each held row's monitor sits in a store outside React (list/store.ts): a live check re-renders the one row showing
//   that monitor, and the server sends the checks of the held rows only (useLiveChecks);
// - search, status, sort and tags live in the URL (listModel.ts), so a view can be shared.

/** Sorted by figures, the order moves with checks of monitors not in view too: asked for again this often. */
const FIGURES_REFRESH_MS = 5000;

/** Row heights (px): one line of columns from lg up; a card of stacked fields below. Each row is exactly this tall. */
export const ROW_HEIGHT = { table: 80, card: 220 } as const;

const TH = "text-left text-xs font-semibold uppercase tracking-wide text-slate-500 whitespace-nowrap";
export default function MonitorList() {
  const { t } = useTranslation();
  useDocumentTitle(t("monitors.title"));
  useManagedMarks();
  const summary = useCheckSummary();
  const store = useMemo(() => createListStore(), []);
  const errorText = useRef((error: unknown) => errorMessage(error, t("monitors.fetchFailed")));
  errorText.current = (error: unknown) => errorMessage(error, t("monitors.fetchFailed"));
  const paged = useMemo(
    () => createPagedList({ store, fetchPage: (q, offset, limit) => getMonitorPage(q.view, q.collapsed, offset, limit), errorText: (e) => errorText.current(e) }),
    [store],
  );
  useEffect(() => () => paged.dispose(), [paged]);
  const list = useSyncExternalStore(paged.subscribe, paged.snapshot);
  const [busy, setBusy] = useState<Record<string, boolean>>({}); // "check-3", "pause-3"

  // The view: parsed from the URL; every change replaces the history entry (typing must not stack entries).
  const search = useSearch();
  const view = useMemo(() => parseListView(search), [search]);
  const [, navigate] = useLocation();
  const setView = useCallback((next: ListView) => navigate(`/monitors${listViewSearch(next)}`, { replace: true }), [navigate]);
  const clearFilters = useCallback(() => setView({ ...DEFAULT_VIEW, sort: view.sort, dir: view.dir }), [setView, view.sort, view.dir]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(() => new Set());
  useEffect(() => paged.setQuery({ view, collapsed: [...collapsed] }), [paged, view, collapsed]);

  // Live: the held rows' checks; whatever can move rows asks for them again.
  const byFigures = view.sort === "responseTime" || view.sort === "uptime";
  const held = useMemo(() => list.rows.map((r) => r.id), [list.rows]);
  useLiveChecks(held, (data) => {
    store.apply({ type: "monitor.check", data });
    if (byFigures) paged.refresh();
  });
  useEffect(() => {
    if (!byFigures) return;
    const timer = setInterval(() => paged.refresh(), FIGURES_REFRESH_MS);
    return () => clearInterval(timer);
  }, [paged, byFigures]);
  useLive("monitor.status", (data) => {
    store.apply({ type: "monitor.status", data });
    paged.refresh();
  });
  useLive("monitor.change", (data) => {
    store.apply({ type: "monitor.change", data });
    paged.refresh();
  });
  useLive("maintenance.change", (data) => {
    store.setMaintenance(data.monitors.entered, data.monitors.left);
    paged.refresh();
  });
  // (Re)connected: catch up on whatever happened while the socket was not open.
  useLive("hello", () => paged.reload());

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
        paged.refresh();
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
        paged.refresh();
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
      store.remove(id);
      paged.refresh();
    },
  });

  // Rows are memoized and read their monitor from the store: the handlers they get must not change identity.
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

  const loaded = list.phase === "loaded";
  const shownCount = isFiltered(view) ? list.total : list.monitors;

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
        {list.phase === "loading" && <LoadingMessage data-testid="monitors-loading">{t("monitors.loading")}</LoadingMessage>}
        {list.phase === "error" && <LoadError data-testid="monitors-error" message={list.message ?? ""} onRetry={() => paged.reload()} />}
        {loaded && list.monitors === 0 && (
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
        {loaded && list.monitors > 0 && (
          <>
            <ListToolbar view={view} setView={setView} counts={list.counts} tags={list.tags} shown={shownCount} total={list.monitors} />
            {list.total === 0 ? (
              <NoMatch view={view} onClear={clearFilters} />
            ) : (
              <MonitorTable
                store={store}
                paged={paged}
                list={list}
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
      {loaded && list.monitors > 0 && <AvailabilityLegend className="px-1" data-testid="monitors-legend" />}
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
  paged,
  list,
  collapsed,
  view,
  setView,
  busy,
  deletingId,
  actions,
}: {
  store: ListStore;
  paged: PagedList;
  /** The rows held and the whole list's total. */
  list: PagedSnapshot;
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
  const total = list.total;
  const { start, end, padTop, padBottom } = useWindowRows(body, total, rowHeight, wide ? 8 : 4);
  useEffect(() => paged.setWindow(start, end), [paged, start, end]);
  const places = useMemo(() => Array.from({ length: end - start }, (_, i) => placeAt(list, start + i)), [list, start, end]);
  const inView = useMemo(() => places.flatMap((p) => (p ? [p.id] : [])), [places]);
  useVisibleChecks(store, inView);

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
      <div role="table" aria-label={t("monitors.list.table")} aria-rowcount={total + 1} aria-busy={!list.current} data-testid="monitors-table" className="lg:min-w-[55.25rem] xl:min-w-[75.5rem]">
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
          {places.map((row, i) => {
            if (!row) return <RowPlaceholder key={`placeholder-${start + i}`} rowIndex={start + i + 2} height={rowHeight} />;
            const id = row.id;
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
