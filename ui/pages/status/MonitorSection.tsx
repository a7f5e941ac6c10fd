// The status page's monitors: uptime, 90 daily bars with one shared tooltip, a 24-hour sparkline per row.
import { memo, useEffect, useId, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type PointerEvent, type Ref, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import type { StatusDay, StatusMonitor } from "../../api/status";
import { Sparkline } from "../../components/charts/Sparkline";
import { formatAvailability, formatMs } from "../monitors/model";
import { MonitorStatusBadge } from "../monitors/parts";
import { availabilityLevel, LEVEL_COLOR } from "../../components/availability";
import { GroupMembers } from "./GroupMembers";
import { sameMonitor } from "./model";

/** The texts of the bars, built once per language (a page may have tens of thousands of bars). */
function useDayText(incidents: ReadonlyMap<number, string>) {
  const { t, i18n } = useTranslation();
  return useMemo(() => {
    // The days are UTC days: show their date as such, not shifted into the reader's zone.
    const dateFormat = new Intl.DateTimeFormat(i18n.language, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
    const dates = new Map<number, string>();
    const date = (ms: number) => {
      let text = dates.get(ms);
      if (text === undefined) dates.set(ms, (text = dateFormat.format(ms)));
      return text;
    };
    const noData = t("statusPage.bar.noData");
    const available = (value: number) => t("statusPage.bar.availability", { value: formatAvailability(value) });
    return {
      /** The accessible name of a bar: its date and availability. */
      label: (d: StatusDay) => `${date(d.date)}: ${d.availability === null ? noData : available(d.availability)}`,
      /** The tooltip's lines. */
      lines: (d: StatusDay): string[] => {
        const inMaintenance = d.maintenance > 0 ? [t("statusPage.bar.maintenance", { count: d.maintenance })] : [];
        // The incidents of that day, by title.
        const named = (d.incidents ?? []).flatMap((id) => (incidents.has(id) ? [t("statusPage.bar.incident", { title: incidents.get(id) })] : []));
        if (d.availability === null) return [date(d.date), ...(inMaintenance.length ? inMaintenance : [noData]), ...named];
        const lines = [date(d.date), available(d.availability), t("statusPage.bar.checks", { count: d.checks }), ...inMaintenance];
        if (d.avgResponseTime !== null) lines.push(t("statusPage.bar.avg", { value: formatMs(d.avgResponseTime) }));
        return [...lines, ...named];
      },
    };
  }, [t, i18n.language, incidents]);
}

type DayText = ReturnType<typeof useDayText>;

const NO_INCIDENTS: ReadonlyMap<number, string> = new Map();

export function MonitorSection({ monitors, tip, incidents = NO_INCIDENTS, heading = true }: { monitors: StatusMonitor[]; tip: RefObject<DayTip | null>; incidents?: ReadonlyMap<number, string>; heading?: boolean }) {
  const { t } = useTranslation();
  const text = useDayText(incidents);
  const headingId = useId();
  return (
    <section data-testid="status-monitors" aria-labelledby={heading ? headingId : undefined} aria-label={heading ? undefined : t("statusPage.monitors")}>
      {heading && (
        <h2 id={headingId} className="mb-3 text-lg font-semibold text-slate-900">
          {t("statusPage.monitors")}
        </h2>
      )}
      <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
        {monitors.map((m) => (
          <MonitorRow key={m.id} monitor={m} text={text} tip={tip} />
        ))}
      </ul>
    </section>
  );
}

const MonitorRow = memo(
  function MonitorRow({ monitor: m, text, tip }: { monitor: StatusMonitor; text: DayText; tip: RefObject<DayTip | null> }) {
    const { t } = useTranslation();
    const values = m.responseTimes.values.filter((v): v is number => v !== null);
    const avg = values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
    const uptime: [keyof StatusMonitor["uptime"], string][] = [
      ["day", t("statusPage.range24h")],
      ["month", t("statusPage.range30d")],
      ["quarter", t("statusPage.range90d")],
    ];
    return (
      // Rows far off screen skip layout and paint until scrolled to.
      <li data-testid={`status-monitor-${m.id}`} className="px-4 py-4 [contain-intrinsic-size:auto_9.5rem] [content-visibility:auto] sm:px-6">
        <div className="flex items-center gap-3">
          <h3 className="min-w-0 flex-1 break-words font-medium text-slate-900">{m.name}</h3>
          <MonitorStatusBadge status={m.status} data-testid={`status-monitor-status-${m.id}`} />
        </div>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-x-6 gap-y-2">
          <dl className="flex gap-4 text-xs" aria-label={t("statusPage.uptime")}>
            {uptime.map(([key, label]) => (
              <div key={key} className="flex items-baseline gap-1.5">
                <dt className="text-slate-500">{label}</dt>
                <dd data-testid={`status-uptime-${key}-${m.id}`} className="font-semibold tabular-nums text-slate-800">
                  {formatAvailability(m.uptime[key])}
                </dd>
              </div>
            ))}
          </dl>
          <div className="flex items-center gap-2" title={t("statusPage.responseTime")}>
            {avg === null ? (
              <span data-testid={`status-spark-empty-${m.id}`} className="text-xs text-slate-400">
                {t("statusPage.noResponse")}
              </span>
            ) : (
              <>
                <Sparkline
                  times={m.responseTimes.times}
                  values={m.responseTimes.values}
                  width={112}
                  height={28}
                  label={`${t("statusPage.responseTime")}: ${t("statusPage.avgResponse", { value: formatMs(avg) })}`}
                  data-testid={`status-spark-${m.id}`}
                />
                <span className="whitespace-nowrap text-xs tabular-nums text-slate-500">{t("statusPage.avgResponse", { value: formatMs(avg) })}</span>
              </>
            )}
          </div>
        </div>
        {m.locations && m.locations.length > 0 && (
          <ul className="mt-2 flex flex-wrap gap-2" aria-label={t("statusPage.locations")} data-testid={`status-locations-${m.id}`}>
            {m.locations.map((l, i) => (
              <li key={i} className="flex items-center gap-1.5 rounded-full bg-slate-50 px-2.5 py-0.5 text-xs text-slate-600 ring-1 ring-slate-200">
                <span className={`size-2 rounded-full ${l.status === "up" ? "bg-emerald-500" : l.status === "down" ? "bg-red-500" : "bg-slate-300"}`} aria-hidden />
                <span className="font-medium">{l.server ? t("statusPage.serverLocation") : l.name}</span>
                <span className="tabular-nums">{l.status === "no data" ? t("statusPage.locationNoData") : l.status === "down" ? t("statusPage.locationDown") : l.responseTime === null ? "—" : formatMs(l.responseTime)}</span>
              </li>
            ))}
          </ul>
        )}
        {m.members && <GroupMembers groupId={m.id} name={m.name} members={m.members} />}
        <DayBars monitor={m} text={text} tip={tip} />
        <div className="mt-1 flex justify-between gap-2 text-[11px] text-slate-400">
          <span>{t("statusPage.daysAgo")}</span>
          <span className="hidden sm:inline">{t("statusPage.utcDays")}</span>
          <span>{t("statusPage.today")}</span>
        </div>
      </li>
    );
  },
  (a, b) => a.text === b.text && a.tip === b.tip && sameMonitor(a.monitor, b.monitor),
);

/**
 * The 90 daily bars. Each is focusable (its tooltip shows on keyboard focus); the pointer is followed over the whole
 * strip, so a finger sliding across a phone's narrow bars shows each day in turn.
 */
function DayBars({ monitor, text, tip }: { monitor: StatusMonitor; text: DayText; tip: RefObject<DayTip | null> }) {
  const { t } = useTranslation();
  const strip = useRef<HTMLDivElement>(null);
  const days = monitor.days;
  const show = (index: number) => {
    const bar = strip.current?.children[index];
    const day = days[index];
    if (bar instanceof HTMLElement && day) tip.current?.show(bar, text.lines(day));
  };
  const follow = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width <= 0) return;
    show(Math.min(days.length - 1, Math.max(0, Math.floor(((event.clientX - box.left) / box.width) * days.length))));
  };
  const indexOf = (target: EventTarget) => (target instanceof HTMLElement && target.dataset.i !== undefined ? Number(target.dataset.i) : -1);
  return (
    <div
      ref={strip}
      role="list"
      aria-label={t("statusPage.barsLabel", { name: monitor.name })}
      data-testid={`status-bars-${monitor.id}`}
      data-bars=""
      className="mt-3 flex h-8 touch-pan-y items-stretch gap-px sm:gap-[2px]"
      onPointerMove={follow}
      onPointerDown={follow}
      onPointerLeave={(e) => {
        if (e.pointerType === "mouse" && !strip.current?.contains(document.activeElement)) tip.current?.hide();
      }}
      onFocus={(e) => {
        const i = indexOf(e.target);
        if (i >= 0) show(i);
      }}
      onBlur={() => tip.current?.hide()}
    >
      {days.map((d, i) => {
        const level = availabilityLevel(d.availability, d.maintenance);
        return (
          <div
            key={d.date}
            role="listitem"
            tabIndex={0}
            data-i={i}
            data-level={level}
            data-testid="status-bar"
            aria-label={text.label(d)}
            className={`min-w-0 flex-1 cursor-default rounded-[2px] outline-offset-1 focus-visible:outline-2 focus-visible:outline-indigo-500 ${LEVEL_COLOR[level]}`}
          />
        );
      })}
    </div>
  );
}

// --- the shared tooltip --------------------------------------------------------------------------------------------

export interface DayTip {
  show(bar: HTMLElement, lines: string[]): void;
  hide(): void;
}

/**
 * One tooltip for every bar on the page, placed above the bar (below it near the top of the window) and kept inside
 * the page's width so a phone never scrolls sideways. A touch elsewhere, Escape or a resize closes it.
 */
export function DayTooltip({ ref }: { ref: Ref<DayTip> }) {
  const [shown, setShown] = useState<{ bar: HTMLElement; lines: string[] } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useImperativeHandle(ref, () => ({ show: (bar, lines) => setShown({ bar, lines }), hide: () => setShown(null) }), []);

  useLayoutEffect(() => {
    const el = box.current;
    const parent = el?.offsetParent;
    if (!el || !shown || !parent) return;
    const bar = shown.bar.getBoundingClientRect();
    const area = parent.getBoundingClientRect();
    const margin = 8;
    const left = Math.min(Math.max(bar.left + bar.width / 2 - area.left - el.offsetWidth / 2, margin), parent.clientWidth - el.offsetWidth - margin);
    const above = bar.top - el.offsetHeight - margin >= 0;
    el.style.left = `${Math.max(margin, left)}px`;
    el.style.top = `${(above ? bar.top - el.offsetHeight - margin : bar.bottom + margin) - area.top}px`;
  }, [shown]);

  useEffect(() => {
    if (!shown) return;
    const onPointer = (e: globalThis.PointerEvent) => {
      if (!(e.target instanceof Element && e.target.closest("[data-bars]"))) setShown(null);
    };
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setShown(null);
    // Placed for the layout it was shown in: a new width (a phone turned) would leave it adrift. Only the width: a
    // phone's toolbar folding away on scroll changes the height alone.
    const width = window.innerWidth;
    const onResize = () => window.innerWidth !== width && setShown(null);
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    window.addEventListener("resize", onResize);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("resize", onResize);
    };
  }, [shown]);

  if (!shown) return null;
  return (
    <div
      ref={box}
      role="tooltip"
      data-testid="status-tooltip"
      className="pointer-events-none absolute z-20 w-max max-w-64 rounded-lg bg-slate-900 px-3 py-2 text-xs leading-5 text-white shadow-lg"
    >
      {shown.lines.map((line, i) => (
        <div key={i} className={i === 0 ? "font-medium" : "text-slate-300"}>
          {line}
        </div>
      ))}
    </div>
  );
}
