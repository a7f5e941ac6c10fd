import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { MaintenanceState, Occurrence, Schedule } from "../../api/maintenance";
import { formatDuration } from "../../components/format";
import { useDurationUnits } from "../../components/time";

// Small pieces shared by the maintenance screens and the monitor and agent pages.

const STATE_STYLE: Record<MaintenanceState, string> = {
  active: "bg-sky-50 text-sky-700 ring-sky-600/20",
  upcoming: "bg-indigo-50 text-indigo-700 ring-indigo-600/20",
  ended: "bg-slate-100 text-slate-600 ring-slate-500/20",
};

/** In progress (blue), coming (indigo), ended (grey). */
export function MaintenanceStateBadge({ state, "data-testid": testId }: { state: MaintenanceState; "data-testid"?: string }) {
  const { t } = useTranslation();
  return (
    <span data-testid={testId} data-state={state} className={`inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATE_STYLE[state]}`}>
      {t(`maintenance.states.${state}`)}
    </span>
  );
}

/** Formats instants in a zone (the window's, or the reader's when `zone` is undefined), in the interface language. */
export function useZonedFormat(zone?: string) {
  const { i18n } = useTranslation();
  return useMemo(() => {
    // 24-hour times: schedules are written "02:00", so the occurrences read the same way.
    const full = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", hourCycle: "h23", timeZone: zone });
    const time = new Intl.DateTimeFormat(i18n.language, { timeStyle: "short", hourCycle: "h23", timeZone: zone });
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
    /** "Mar 29, 2026, 02:00 – 04:00" (the end's date only when it differs). */
    const range = (o: Occurrence, until: string) => {
      if (o.end === null) return `${full.format(o.start)} – ${until}`;
      return `${full.format(o.start)} – ${day.format(o.start) === day.format(o.end) ? time.format(o.end) : full.format(o.end)}`;
    };
    return { full: (ms: number) => full.format(ms), range };
  }, [i18n.language, zone]);
}

/** "Every Sunday at 02:00 for 2h (Europe/Berlin)": what a schedule means, in a sentence. */
export function useScheduleText() {
  const { t, i18n } = useTranslation();
  const units = useDurationUnits();
  return (s: Schedule) => {
    const fmt = (ms: number) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", hourCycle: "h23", timeZone: s.timezone }).format(ms);
    const duration = formatDuration((s.durationMinutes ?? 0) * 60, units);
    const zone = s.timezone;
    switch (s.kind) {
      case "once":
        return t("maintenance.summary.once", { start: fmt(s.startsAt ?? 0), end: fmt(s.endsAt ?? 0), zone });
      case "manual":
        return s.endsAt === null ? t("maintenance.summary.manual", { start: fmt(s.startsAt ?? 0), zone }) : t("maintenance.summary.manualEnded", { start: fmt(s.startsAt ?? 0), end: fmt(s.endsAt), zone });
      case "daily":
        return t("maintenance.summary.daily", { time: s.time, duration, zone });
      case "weekly": {
        const names = new Intl.DateTimeFormat(i18n.language, { weekday: "long", timeZone: "UTC" });
        // 2024-01-01 was a Monday: ISO weekday n is that date plus n - 1 days.
        const days = s.weekdays.map((d) => names.format(Date.UTC(2024, 0, d))).join(t("maintenance.listSeparator"));
        return t("maintenance.summary.weekly", { days, time: s.time, duration, zone });
      }
      case "monthly": {
        const days = s.monthDays.map((d) => (d === -1 ? t("maintenance.lastDay") : String(d))).join(t("maintenance.listSeparator"));
        return t("maintenance.summary.monthly", { days, time: s.time, duration, zone });
      }
      case "cron":
        return t("maintenance.summary.cron", { cron: s.cron, duration, zone });
    }
  };
}
