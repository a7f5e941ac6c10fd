// The public status page (/status): no sign-in, no navbar, no footer. Title, description, the announcement, an
// overall banner, then the selected monitors (uptime, 90 daily bars, a 24-hour sparkline) and agents. It asks the
// server again every 30 s while the tab is visible.
//
// Built for hundreds of monitors: rows re-render only when their data changed (sameMonitor), the bars carry no React
// state or handlers of their own (one set of handlers per strip, found by index), and one tooltip element serves
// every bar on the page.
//
// data-testids: `status-page`, `status-loading`, `status-error`, `status-title`, `status-description`,
//   `status-announcement` (data-severity), `status-overall` (data-status), `status-down-list`, `status-offline-list`,
//   `status-empty`, `status-monitors`, `status-monitor-{id}`, `status-monitor-status-{id}` (data-status),
//   `status-uptime-{day|month|quarter}-{id}`, `status-bars-{id}`, `status-bar` (data-level), `status-spark-{id}`,
//   `status-spark-empty-{id}`, `status-agents`, `status-agent-{id}`, `status-agent-status-{id}` (data-status),
//   `status-agent-{cpu|memory|disk|load|uptime|last}-{id}`, `status-tooltip`, `status-updated`, `status-refresh-failed`.
import { memo, useCallback, useEffect, useId, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type PointerEvent, type ReactNode, type Ref, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { errorMessage } from "../../api/errors";
import { getPublicStatus, STATUS_POLL_MS, type Announcement, type PublicStatusPage, type StatusAgent, type StatusDay, type StatusMonitor } from "../../api/status";
import { Sparkline } from "../../components/charts/Sparkline";
import { formatDuration, formatLoad } from "../../components/format";
import { usePolling } from "../../components/hooks";
import { CheckIcon, LogoMark } from "../../components/icons";
import { LanguageSwitch } from "../../components/LanguageSwitch";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { Ago, useDurationUnits, useFormatDateTime } from "../../components/time";
import { AgentStatusBadge, UsageMeter } from "../agents/parts";
import { formatAvailability, formatMs } from "../monitors/model";
import { MonitorStatusBadge } from "../monitors/parts";
import { barLevel, firstNames, sameMonitor, type BarLevel } from "./model";

type PageState =
  | { phase: "loading" }
  | { phase: "error"; message: string }
  | { phase: "loaded"; page: PublicStatusPage; /** The last refresh failed: the page shown is older. */ stale: boolean };

export default function StatusPage() {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<PageState>({ phase: "loading" });
  const tip = useRef<DayTip>(null);

  // Depends on the i18n instance, not on `t`: a language switch re-renders, it does not refetch.
  const load = useCallback(async () => {
    try {
      const { page } = await getPublicStatus();
      setState({ phase: "loaded", page, stale: false });
    } catch (err) {
      // Once something is shown, keep it (with a note) rather than blank the page during an outage.
      setState((s) => (s.phase === "loaded" ? { ...s, stale: true } : { phase: "error", message: errorMessage(err, i18n.t("errors.fetchFailed")) }));
    }
  }, [i18n]);

  useEffect(() => {
    void load();
  }, [load]);
  // Also after a failed first load: the page recovers by itself once the server answers again.
  usePolling(load, STATUS_POLL_MS);

  const page = state.phase === "loaded" ? state.page : null;
  const title = page?.title || t("statusPage.title");
  useEffect(() => {
    document.title = title; // the operator's title alone: this page is theirs, not Vigil's
  }, [title]);

  return (
    <div data-testid="status-page" className="relative min-h-screen bg-slate-50">
      <header className="mx-auto flex max-w-4xl items-center justify-between gap-3 px-4 py-5 sm:px-6">
        <Link href="/" className="flex items-center gap-2" aria-label={t("nav.home")}>
          <LogoMark className="size-8" />
          <span className="text-lg font-semibold text-slate-900">{t("app.name")}</span>
        </Link>
        <LanguageSwitch />
      </header>
      <main className="mx-auto max-w-4xl space-y-6 px-4 pb-16 sm:px-6">
        {state.phase === "loading" && <LoadingMessage data-testid="status-loading">{t("statusPage.loading")}</LoadingMessage>}
        {state.phase === "error" && (
          <>
            <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{title}</h1>
            <LoadError data-testid="status-error" message={state.message} onRetry={() => void load()} className="rounded-xl border border-slate-200 bg-white" />
          </>
        )}
        {page && <PageBody page={page} title={title} stale={state.phase === "loaded" && state.stale} tip={tip} />}
      </main>
      <DayTooltip ref={tip} />
    </div>
  );
}

function PageBody({ page, title, stale, tip }: { page: PublicStatusPage; title: string; stale: boolean; tip: RefObject<DayTip | null> }) {
  const { t } = useTranslation();
  const format = useFormatDateTime();
  const empty = page.monitors.length === 0 && page.agents.length === 0;
  return (
    <>
      <div>
        <h1 data-testid="status-title" className="break-words text-3xl font-semibold tracking-tight text-slate-900">
          {title}
        </h1>
        {page.description && (
          <p data-testid="status-description" className="mt-2 whitespace-pre-line break-words text-slate-600">
            {page.description}
          </p>
        )}
      </div>
      {page.announcement && <AnnouncementBox announcement={page.announcement} />}
      {empty ? (
        <div data-testid="status-empty" className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
          <p className="font-medium text-slate-800">{t("statusPage.empty")}</p>
          <p className="mt-1 text-sm text-slate-500">{t("statusPage.emptyHint")}</p>
        </div>
      ) : (
        <>
          <OverallBanner overall={page.overall} />
          {page.monitors.length > 0 && <MonitorSection monitors={page.monitors} tip={tip} />}
          {page.agents.length > 0 && <AgentSection agents={page.agents} />}
        </>
      )}
      <div className="space-y-1 text-center text-xs text-slate-400">
        {stale && (
          <p data-testid="status-refresh-failed" role="status" className="font-medium text-amber-700">
            {t("statusPage.refreshFailed", { time: format(page.generatedAt) })}
          </p>
        )}
        <p data-testid="status-updated" title={format.zoneOf(page.generatedAt)}>
          {t("statusPage.updated", { time: format(page.generatedAt) })}
        </p>
      </div>
    </>
  );
}

// --- announcement and banner ---------------------------------------------------------------------------------------

const SEVERITY_STYLE: Record<Announcement["severity"], { box: string; tag: string }> = {
  info: { box: "border-sky-200 bg-sky-50 text-sky-950", tag: "bg-sky-600" },
  warning: { box: "border-amber-300 bg-amber-50 text-amber-950", tag: "bg-amber-500" },
  outage: { box: "border-red-300 bg-red-50 text-red-950", tag: "bg-red-600" },
};

function AnnouncementBox({ announcement }: { announcement: Announcement }) {
  const { t } = useTranslation();
  const format = useFormatDateTime();
  const style = SEVERITY_STYLE[announcement.severity] ?? SEVERITY_STYLE.info;
  return (
    <section
      data-testid="status-announcement"
      data-severity={announcement.severity}
      aria-label={t(`statusPage.announcement.${announcement.severity}`)}
      className={`rounded-xl border px-4 py-4 sm:px-5 ${style.box}`}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold text-white ${style.tag}`}>{t(`statusPage.announcement.${announcement.severity}`)}</span>
        <span className="text-xs opacity-75" title={format.zoneOf(announcement.updatedAt)}>
          {t("statusPage.announcement.posted", { time: format(announcement.updatedAt) })}
        </span>
      </div>
      {/* Plain text, never HTML: React escapes it; line breaks are kept. */}
      <p className="mt-2 whitespace-pre-line break-words text-sm leading-6">{announcement.text}</p>
    </section>
  );
}

function OverallBanner({ overall }: { overall: PublicStatusPage["overall"] }) {
  const { t, i18n } = useTranslation();
  const list = (items: { name: string }[]) => {
    const { names, more } = firstNames(items);
    // "A, B and C" when that is all; "A, B, C and 3 more" (narrow: a plain list before the count) otherwise.
    const joined = new Intl.ListFormat(i18n.language, { type: "conjunction", style: more ? "narrow" : "long" }).format(names);
    return more ? t("statusPage.andMore", { names: joined, count: more }) : joined;
  };
  if (overall.status === "operational") {
    return (
      <div data-testid="status-overall" data-status="operational" role="status" className="flex items-center gap-3 rounded-xl bg-emerald-600 px-5 py-4 text-white shadow-sm">
        <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-white/20">
          <CheckIcon className="size-4" />
        </span>
        <p className="text-lg font-semibold">{t("statusPage.operational")}</p>
      </div>
    );
  }
  const severe = overall.down.length > 0;
  return (
    <div
      data-testid="status-overall"
      data-status="degraded"
      role="status"
      className={`rounded-xl px-5 py-4 text-white shadow-sm ${severe ? "bg-red-600" : "bg-amber-600"}`}
    >
      <p className="text-lg font-semibold">{t("statusPage.degraded")}</p>
      {overall.down.length > 0 && (
        <p data-testid="status-down-list" className="mt-1 break-words text-sm">
          {t("statusPage.downList", { names: list(overall.down) })}
        </p>
      )}
      {overall.offline.length > 0 && (
        <p data-testid="status-offline-list" className="mt-1 break-words text-sm">
          {t("statusPage.offlineList", { names: list(overall.offline) })}
        </p>
      )}
    </div>
  );
}

// --- monitors ------------------------------------------------------------------------------------------------------

const BAR_COLOR: Record<BarLevel, string> = {
  none: "bg-slate-200",
  full: "bg-emerald-500",
  high: "bg-emerald-300",
  mid: "bg-amber-400",
  low: "bg-red-500",
};

/** The texts of the bars, built once per language (a page may have tens of thousands of bars). */
function useDayText() {
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
        if (d.availability === null) return [date(d.date), noData];
        const lines = [date(d.date), available(d.availability), t("statusPage.bar.checks", { count: d.checks })];
        if (d.avgResponseTime !== null) lines.push(t("statusPage.bar.avg", { value: formatMs(d.avgResponseTime) }));
        return lines;
      },
    };
  }, [t, i18n.language]);
}

type DayText = ReturnType<typeof useDayText>;

function MonitorSection({ monitors, tip }: { monitors: StatusMonitor[]; tip: RefObject<DayTip | null> }) {
  const { t } = useTranslation();
  const text = useDayText();
  const headingId = useId();
  return (
    <section data-testid="status-monitors" aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-3 text-lg font-semibold text-slate-900">
        {t("statusPage.monitors")}
      </h2>
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
        const level = barLevel(d.availability);
        return (
          <div
            key={d.date}
            role="listitem"
            tabIndex={0}
            data-i={i}
            data-level={level}
            data-testid="status-bar"
            aria-label={text.label(d)}
            className={`min-w-0 flex-1 cursor-default rounded-[2px] outline-offset-1 focus-visible:outline-2 focus-visible:outline-indigo-500 ${BAR_COLOR[level]}`}
          />
        );
      })}
    </div>
  );
}

// --- the shared tooltip --------------------------------------------------------------------------------------------

interface DayTip {
  show(bar: HTMLElement, lines: string[]): void;
  hide(): void;
}

/**
 * One tooltip for every bar on the page, placed above the bar (below it near the top of the window) and kept inside
 * the page's width so a phone never scrolls sideways. A touch elsewhere, Escape or a resize closes it.
 */
function DayTooltip({ ref }: { ref: Ref<DayTip> }) {
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

// --- agents --------------------------------------------------------------------------------------------------------

function AgentSection({ agents }: { agents: StatusAgent[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section data-testid="status-agents" aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-3 text-lg font-semibold text-slate-900">
        {t("statusPage.agents")}
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2">
        {agents.map((a) => (
          <AgentCard key={a.id} agent={a} />
        ))}
      </ul>
    </section>
  );
}

function AgentCard({ agent: a }: { agent: StatusAgent }) {
  const { t } = useTranslation();
  const units = useDurationUnits();
  const dash = t("common.dash");
  // An offline agent's numbers are its last report: greyed, not presented as current.
  const faded = a.status !== "online" ? "opacity-60" : "";
  return (
    <li data-testid={`status-agent-${a.id}`} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="flex items-center gap-3">
        <h3 className="min-w-0 flex-1 break-words font-medium text-slate-900">{a.name}</h3>
        <AgentStatusBadge status={a.status} data-testid={`status-agent-status-${a.id}`} />
      </div>
      <div className={`mt-4 grid grid-cols-3 gap-3 ${faded}`}>
        <Metric testId={`status-agent-cpu-${a.id}`}>
          <UsageMeter label={t("statusPage.cpu")} percent={a.cpu} />
        </Metric>
        <Metric testId={`status-agent-memory-${a.id}`}>
          <UsageMeter label={t("statusPage.memory")} percent={a.memory} />
        </Metric>
        <Metric testId={`status-agent-disk-${a.id}`}>
          <UsageMeter label={t("statusPage.disk")} percent={a.disk} />
        </Metric>
      </div>
      <dl className={`mt-4 grid grid-cols-2 gap-3 text-xs ${faded}`}>
        <div className="min-w-0">
          <dt className="text-slate-500">{t("statusPage.load")}</dt>
          <dd data-testid={`status-agent-load-${a.id}`} className="mt-0.5 font-medium tabular-nums text-slate-800">
            {a.load ? [a.load.one, a.load.five, a.load.fifteen].map((v) => formatLoad(v)).join(" · ") : dash}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-slate-500">{t("statusPage.upFor")}</dt>
          <dd data-testid={`status-agent-uptime-${a.id}`} className="mt-0.5 font-medium tabular-nums text-slate-800">
            {formatDuration(a.uptime, units, dash)}
          </dd>
        </div>
      </dl>
      {a.status === "offline" && a.lastSeenAt !== null && (
        <p data-testid={`status-agent-last-${a.id}`} className="mt-3 text-xs text-slate-500">
          {t("statusPage.lastReport")}: <Ago at={a.lastSeenAt} never={dash} />
        </p>
      )}
    </li>
  );
}

function Metric({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <div data-testid={testId} className="min-w-0">
      {children}
    </div>
  );
}
