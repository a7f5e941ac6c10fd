import type { ParseKeys } from "i18next";
import { useSignals } from "@preact/signals-react/runtime";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { CheckResult, MonitorType, StatusBucket } from "../../api/monitors";
import { countsLevel, LEVEL_COLOR, LEVEL_HOVER } from "../../components/availability";
import { Ago as SharedAgo } from "../../components/time";
import { liveState } from "../../state/live";
import { formatAvailability, formatMs, type DisplayStatus } from "./model";
import { translateCheckError } from "./checkError";

// Small pieces shared by the monitor screens.

const STATUS_STYLE: Record<DisplayStatus, { badge: string; dot: string }> = {
  up: { badge: "bg-emerald-50 text-emerald-700 ring-emerald-600/20", dot: "bg-emerald-500" },
  down: { badge: "bg-red-50 text-red-700 ring-red-600/20", dot: "bg-red-500" },
  pending: { badge: "bg-amber-50 text-amber-800 ring-amber-600/25", dot: "bg-amber-500" },
  paused: { badge: "bg-slate-100 text-slate-600 ring-slate-500/20", dot: "bg-slate-400" },
  maintenance: { badge: "bg-sky-50 text-sky-700 ring-sky-600/20", dot: "bg-sky-500" },
};

/** Up green, down red, pending amber, paused grey, maintenance blue. */
export function MonitorStatusBadge({ status, size = "sm", "data-testid": testId }: { status: DisplayStatus; size?: "sm" | "md"; "data-testid"?: string }) {
  const { t } = useTranslation();
  const style = STATUS_STYLE[status] ?? STATUS_STYLE.pending;
  return (
    <span
      data-testid={testId}
      data-status={status}
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full font-medium ring-1 ring-inset ${style.badge} ${
        size === "md" ? "px-2.5 py-1 text-sm" : "px-2 py-0.5 text-xs"
      }`}
    >
      <span aria-hidden="true" className={`rounded-full ${style.dot} ${size === "md" ? "size-2" : "size-1.5"}`} />
      {t(`monitors.status.${status}`)}
    </span>
  );
}

/** A monitor's check type as a small mono badge (HTTP, TCP, DNS, Push), named "Type: …" for screen readers. */
export function TypeBadge({ type, size = "sm", "data-testid": testId }: { type: MonitorType; size?: "sm" | "md"; "data-testid"?: string }) {
  const { t } = useTranslation();
  const sizing = size === "md" ? "rounded-md px-2 py-0.5 text-xs" : "rounded px-1.5 text-[10px] leading-4";
  return (
    <span data-testid={testId} data-type={type} className={`inline-flex shrink-0 items-center bg-slate-100 font-mono font-semibold text-slate-600 ring-1 ring-inset ring-slate-200 ${sizing}`}>
      <span className="sr-only">{t("monitors.detail.info.type")}: </span>
      {t(`monitors.types.${type}`)}
    </span>
  );
}

/** "12s ago" (ticking), or "Never"; the exact time and its zone on hover. */
export function Ago({ at, never, phrase }: { at: number | null | undefined; never?: string; phrase?: ParseKeys }) {
  const { t } = useTranslation();
  return <SharedAgo at={at} never={never ?? t("monitors.never")} phrase={phrase} />;
}

function formatSlot(bucket: StatusBucket, daily: boolean, locale: string): string {
  if (daily) return new Intl.DateTimeFormat(locale, { year: "numeric", month: "short", day: "numeric" }).format(bucket.start);
  const time = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", hour12: false });
  const day = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric" });
  return `${day.format(bucket.start)} ${time.format(bucket.start)} – ${time.format(bucket.end)}`;
}

const BUCKET_TEXT: Record<StatusBucket["status"], "bucketUp" | "bucketDown" | "bucketPartial" | "bucketMaintenance" | "bucketEmpty"> = {
  up: "bucketUp",
  down: "bucketDown",
  partial: "bucketPartial",
  maintenance: "bucketMaintenance",
  empty: "bucketEmpty",
};

const levelOf = (b: StatusBucket) => countsLevel(b.total, b.up, b.maintenance);

/**
 * A row of slots, oldest left, coloured by the shared availability scale (components/availability). Hovering
 * (or focusing) a slot shows its time, checks, availability, average response time and checks made in maintenance.
 */
export function StatusBar({
  buckets,
  daily,
  label,
  startLabel,
  endLabel,
  "data-testid": testId,
}: {
  buckets: StatusBucket[];
  daily: boolean;
  label: string;
  startLabel: ReactNode;
  endLabel: ReactNode;
  "data-testid"?: string;
}) {
  const { t, i18n } = useTranslation();
  const [active, setActive] = useState<number | null>(null);
  const describe = (b: StatusBucket) => {
    const parts = [formatSlot(b, daily, i18n.language), t(`monitors.detail.${BUCKET_TEXT[b.status]}`)];
    if (b.total > 0) {
      parts.push(`${t("monitors.detail.bucketChecks", { up: b.up, total: b.total })} (${formatAvailability(b.availability)})`);
      if (b.avgResponseTime !== null) parts.push(t("monitors.detail.bucketAvg", { value: formatMs(b.avgResponseTime) }));
    }
    if (b.maintenance > 0) parts.push(t("monitors.detail.bucketInMaintenance", { count: b.maintenance }));
    return parts;
  };
  const shown = active !== null ? buckets[active] : null;
  return (
    <div data-testid={testId} className="relative">
      <div role="list" aria-label={label} className="flex h-9 items-stretch gap-[3px]" onMouseLeave={() => setActive(null)}>
        {buckets.map((b, i) => (
          <div
            key={b.start}
            role="listitem"
            tabIndex={0}
            aria-label={describe(b).join(", ")}
            data-status={b.status}
            data-level={levelOf(b)}
            data-testid={testId ? `${testId}-slot` : undefined}
            onMouseEnter={() => setActive(i)}
            onFocus={() => setActive(i)}
            onBlur={() => setActive((a) => (a === i ? null : a))}
            className={`min-w-0 flex-1 cursor-default rounded-[3px] outline-offset-2 transition-colors focus-visible:outline-2 focus-visible:outline-indigo-500 ${LEVEL_COLOR[levelOf(b)]} ${LEVEL_HOVER[levelOf(b)]}`}
          />
        ))}
      </div>
      {shown && active !== null && (
        <div
          role="tooltip"
          data-testid={testId ? `${testId}-tooltip` : undefined}
          className="pointer-events-none absolute bottom-full z-10 mb-2 w-max max-w-64 -translate-x-1/2 rounded-lg bg-slate-900 px-3 py-2 text-xs leading-5 text-white shadow-lg"
          style={{ left: `${Math.min(90, Math.max(10, ((active + 0.5) / buckets.length) * 100))}%` }}
        >
          {describe(shown).map((line, i) => (
            <div key={i} className={i === 0 ? "font-medium" : "text-slate-300"}>
              {line}
            </div>
          ))}
        </div>
      )}
      <div className="mt-1.5 flex justify-between text-[11px] text-slate-400">
        <span>{startLabel}</span>
        <span>{endLabel}</span>
      </div>
    </div>
  );
}

/** The text of a check's outcome: "200 · 12 ms" or its error. */
export function useCheckSummary() {
  const { t } = useTranslation();
  return (result: CheckResult) => {
    if (result.status === "up") return [result.httpStatus, formatMs(result.responseTime, "")].filter(Boolean).join(" · ");
    if (result.error) return translateCheckError(t, result.error);
    return result.httpStatus !== null ? `HTTP ${result.httpStatus}` : t("monitors.status.down");
  };
}

/** Whether the socket is live: a small dot in the header. */
export function LiveIndicator() {
  useSignals();
  const { t } = useTranslation();
  const state = liveState.value;
  const dot = state === "open" ? "bg-emerald-500" : state === "idle" ? "bg-slate-300" : "bg-amber-400 animate-pulse";
  return (
    <span data-testid="live-indicator" data-state={state} title={t("monitors.live.hint")} className="inline-flex items-center gap-1.5 text-xs font-medium text-slate-500">
      <span aria-hidden="true" className={`size-2 rounded-full ${dot}`} />
      {t(`monitors.live.${state}`)}
    </span>
  );
}

