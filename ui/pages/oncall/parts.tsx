// Pieces the on-call list and a schedule's page share: the rotation in a sentence, who is on call now and next (times
// in the schedule's zone, the exact moment and both zones on hover), a person's colour dot.
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { OnCallSchedule } from "../../api/oncall";
import { formatWithZone, useHour } from "../../components/time";
import { colourOf, whenOptions } from "./model";

/** Weekday names in the interface language, by ISO number (1 Monday … 7 Sunday). */
export function useWeekdayNames(style: "long" | "short" = "long") {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const f = new Intl.DateTimeFormat(i18n.language, { weekday: style, timeZone: "UTC" });
    // 2024-01-01 was a Monday.
    return (iso: number) => f.format(Date.UTC(2024, 0, iso));
  }, [i18n.language, style]);
}

/** "Hands over every Monday at 09:00 (Europe/Berlin), from Mar 23, 2026". */
export function useRotationText() {
  const { t, i18n } = useTranslation();
  const weekday = useWeekdayNames();
  return (s: Pick<OnCallSchedule, "rotation" | "handoverTime" | "handoverWeekday" | "timeZone" | "startDate">) => {
    const values = { time: s.handoverTime, zone: s.timeZone, weekday: weekday(s.handoverWeekday ?? 1) };
    const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "UTC" }).format(Date.parse(`${s.startDate}T00:00:00Z`));
    return `${t(s.rotation === "weekly" ? "oncall.summary.weekly" : "oncall.summary.daily", values)}${t("oncall.summary.since", { date })}`;
  };
}

/** A moment in a zone as the on-call screens write it (model.ts whenOptions), with its hover text. */
export function useWhen(zone: string) {
  const { i18n } = useTranslation();
  const hour = useHour(); // "Mon 09:00" or with the date: re-decided as time passes
  return useMemo(() => {
    const lang = i18n.language;
    return {
      text: (at: number) => new Intl.DateTimeFormat(lang, whenOptions(at, hour * 3_600_000, zone)).format(at),
      title: (at: number) => formatWithZone(at, lang, zone),
    };
  }, [i18n.language, zone, hour]);
}

/** "On call now: alice until Mon 09:00" and "Next: bob from Mon 09:00". data-testids `{prefix}-now`, `{prefix}-next`. */
export function NowNext({ schedule: s, prefix }: { schedule: OnCallSchedule; prefix: string }) {
  const { t } = useTranslation();
  const when = useWhen(s.timeZone);
  return (
    <div className="space-y-1 text-sm">
      <p data-testid={`${prefix}-now`} data-user={s.now?.userId ?? ""} className="flex min-w-0 items-start gap-2 font-medium text-slate-900">
        <Dot userId={s.now?.userId ?? null} />
        <span className="min-w-0 break-words [overflow-wrap:anywhere]" title={s.now?.until ? when.title(s.now.until) : undefined}>
          {s.now === null ? t("oncall.nobody") : s.now.until === null ? t("oncall.nowForGood", { name: s.now.username }) : t("oncall.now", { name: s.now.username, time: when.text(s.now.until) })}
        </span>
      </p>
      <p data-testid={`${prefix}-next`} data-user={s.next?.userId ?? ""} className="flex min-w-0 items-start gap-2 text-slate-600">
        <Dot userId={s.next?.userId ?? null} />
        <span className="min-w-0 break-words [overflow-wrap:anywhere]" title={s.next ? when.title(s.next.from) : undefined}>
          {s.next === null ? t("oncall.noNext") : t("oncall.next", { name: s.next.username, time: when.text(s.next.from) })}
        </span>
      </p>
    </div>
  );
}

/** A person's colour (grey: nobody). */
export function Dot({ userId }: { userId: number | null }) {
  return <span aria-hidden className={`mt-1.5 inline-block size-2.5 shrink-0 rounded-full ${userId === null ? "bg-slate-300" : colourOf(userId)}`} />;
}

/**
 * Reloads (quietly) when the first of these schedules hands over, so "on call now" moves on by itself; looks again
 * every few hours at most (a far hand-over, a clock that slept).
 */
export function useReloadAtHandover(schedules: readonly OnCallSchedule[] | null, reload: () => void) {
  const due = schedules ? Math.min(...schedules.flatMap((s) => [s.now?.until ?? Infinity, s.next?.from ?? Infinity])) : Infinity;
  useEffect(() => {
    if (schedules === null) return;
    // Not sooner than 15 s: a browser clock ahead of the server's would otherwise ask again and again.
    const wait = Math.min(Math.max(due - Date.now() + 1_000, 15_000), 6 * 3_600_000);
    const timer = setTimeout(reload, wait);
    return () => clearTimeout(timer);
  }, [due, schedules, reload]);
}
