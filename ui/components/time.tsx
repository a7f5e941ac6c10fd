import { computed, signal } from "@preact/signals-react";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useMemo } from "react";
import type { ParseKeys } from "i18next";
import { useTranslation } from "react-i18next";
import { formatDuration, secondsSince, type DurationUnits } from "./format";

// Times on screen: every one is a <time> element whose hover title carries the date, the time to the second and
// the time zone (the browser's zone name, plus UTC), so "14:03" is never ambiguous for a team across zones.

// One clock for every "12s ago" on the page: a single timer, and only the components showing a time re-render.
const clock = signal(Date.now());
let clockUsers = 0;
let clockTimer: ReturnType<typeof setInterval> | null = null;

/** Keeps the clock ticking while the calling component is mounted. */
function useClockRunning() {
  useEffect(() => {
    if (clockUsers++ === 0) {
      clock.value = Date.now();
      clockTimer = setInterval(() => (clock.value = Date.now()), 1000);
    }
    return () => {
      if (--clockUsers === 0 && clockTimer) {
        clearInterval(clockTimer);
        clockTimer = null;
      }
    };
  }, []);
}

/** The current time (Unix ms), ticking every second while a component uses it. */
export function useClock(): number {
  useSignals();
  useClockRunning();
  return clock.value;
}

const HOUR_MS = 3_600_000;
/** The hour number (hours since the epoch, UTC): a computed signal, so it wakes its readers once an hour, not every second. */
const hour = computed(() => Math.floor(clock.value / HOUR_MS));

/** The current hour number, re-rendering the component only when the hour turns. */
export function useHour(): number {
  useSignals();
  useClockRunning();
  return hour.value;
}

/** Duration units in the current language ("12s" / "12秒"). */
export function useDurationUnits(): DurationUnits {
  const { t } = useTranslation();
  return { d: t("common.units.d"), h: t("common.units.h"), m: t("common.units.m"), s: t("common.units.s") };
}

/** Date and time to the second, in the interface language. */
export function formatDateTime(at: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false }).format(at);
}

/** The hover text of a time: "2026年11月22日 14:03:05 GMT+8 (UTC 2026-11-22 06:03:05)". `timeZone` is for tests. */
export function formatWithZone(at: number, locale: string, timeZone?: string): string {
  const local = new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hour12: false,
    timeZoneName: "short",
    timeZone,
  }).format(at);
  const utc = new Date(at).toISOString().replace("T", " ").slice(0, 19);
  return `${local} (UTC ${utc})`;
}

type TimeStyle = "datetime" | "date" | "time";

/** Every time the UI shows is on the 24-hour clock, in English too (en-US would otherwise say "2:03 PM" here). */
export const STYLE_OPTIONS: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
  datetime: { dateStyle: "medium", timeStyle: "short", hourCycle: "h23" },
  date: { dateStyle: "medium" },
  time: { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false },
};

/** Date and time, medium/short ("Nov 22, 2026, 14:03"), for sentences; `zoneOf` gives the hover text to go with it. */
export function useFormatDateTime() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(i18n.language, STYLE_OPTIONS.datetime);
    return Object.assign((ms: number) => format.format(ms), { zoneOf: (ms: number) => formatWithZone(ms, i18n.language) });
  }, [i18n.language]);
}


/** A moment shown in the reader's language and zone, with the zone spelled out on hover. */
export function Time({ at, style = "datetime", className, "data-testid": testId }: { at: number; style?: TimeStyle; className?: string; "data-testid"?: string }) {
  const { i18n } = useTranslation();
  return (
    <time dateTime={new Date(at).toISOString()} title={formatWithZone(at, i18n.language)} className={className} data-testid={testId}>
      {new Intl.DateTimeFormat(i18n.language, STYLE_OPTIONS[style]).format(at)}
    </time>
  );
}

/** "12s ago" (ticking; `phrase` words it otherwise, with `{{time}}`), or `never`; the exact time and its zone on hover. */
export function Ago({ at, never, phrase = "common.ago", "data-testid": testId }: { at: number | null | undefined; never: string; phrase?: ParseKeys; "data-testid"?: string }) {
  const { t, i18n } = useTranslation();
  const now = useClock();
  const units = useDurationUnits();
  if (!at) return <>{never}</>;
  return (
    <time dateTime={new Date(at).toISOString()} title={formatWithZone(at, i18n.language)} data-testid={testId}>
      {t(phrase, { time: formatDuration(secondsSince(at, now), units) })}
    </time>
  );
}
