// One row of the monitor list (MonitorList.tsx): a monitor's cells, live from the list store, at a fixed height; a
// group's row folds its members. Also the column grid the list's header shares.
import { memo, useCallback, useSyncExternalStore, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import type { PublicMonitor, RecentCheck } from "../../../api/monitors";
import { Button, buttonClass } from "../../../components/Button";
import { EditorOnly } from "../../../components/guards";
import { ChevronDownIcon, PauseIcon, PencilIcon, PlayIcon, RefreshIcon, TrashIcon } from "../../../components/icons";
import { TagChip } from "../../../components/Tag";
import { translateCheckError } from "../checkError";
import { CheckStrip } from "../CheckStrip";
import { intervalText } from "../intervals";
import { displayStatus, formatAvailability, formatMs } from "../model";
import { Ago, MonitorStatusBadge, TypeBadge } from "../parts";
import { HeartbeatStrip } from "./HeartbeatStrip";
import type { ListStore } from "./store";
import { ManagedBadge } from "../../../components/Managed";


export interface RowActions {
  /** Opens or closes a group's members. */
  toggleMembers: (id: number) => void;
  check: (id: number) => void;
  togglePause: (id: number) => void;
  remove: (id: number) => void;
}

/**
 * The columns (the header and every row share them). From xl (1280 px) all seven with worded actions; from lg
 * (1024 px) to xl the compact table: no "Last checked" column and icon actions, so the whole row fits without a
 * sideways scroll on small laptops and landscape tablets; below lg, cards.
 */
export const GRID =
  "lg:grid lg:grid-cols-[minmax(10rem,1fr)_8.5rem_9.5rem_5.5rem_6rem_10rem] xl:grid-cols-[minmax(12rem,1fr)_8.5rem_9.5rem_6rem_6.5rem_7rem_19.5rem] lg:items-center lg:gap-x-3 lg:px-4";
/** The "Last checked" cell and header: not in the compact table. */
// Mobile-first (lg:… xl:…) rather than max-xl: Chromium matches `max-xl`'s (max-width: calc(80rem - .001px)) at
// exactly 1280 px too, where the xl rules also apply.
export const LAST_CHECKED = "lg:hidden xl:block";
export const CELL = "min-w-0 text-sm text-slate-700";
/** The column's name beside its value, on cards only (the header row is hidden there). */
export const PHONE_LABEL = "mr-2 text-xs text-slate-400 lg:hidden";

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

/** A row whose monitor is still being fetched (scrolled to faster than the list could fetch): its place, greyed. */
export function RowPlaceholder({ rowIndex, height }: { rowIndex: number; height: number }) {
  return (
    <div role="row" aria-rowindex={rowIndex} aria-busy="true" style={{ height }} data-testid="monitor-row-placeholder" className="flex items-center border-b border-slate-100 px-4">
      <div role="cell" className="h-3 w-1/3 animate-pulse rounded bg-slate-100" />
    </div>
  );
}

export const MonitorRow = memo(function MonitorRow({
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
  if (!entry) return <RowPlaceholder rowIndex={rowIndex} height={height} />;
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
          {/* On the tags' line: beside the name it would squeeze a long name away. */}
          <ManagedBadge what="monitor" id={id} testId={`monitor-managed-${id}`} />
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
