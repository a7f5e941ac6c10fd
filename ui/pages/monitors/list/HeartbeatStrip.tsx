import { memo } from "react";
import { useTranslation } from "react-i18next";
import { useHour } from "../../../components/time";
import { countsLevel, LEVEL_COLOR } from "../../../components/availability";
import { HEARTBEAT_HOURS, HOUR_MS, heartbeatTotals, rollHeartbeat, type HeartbeatPair } from "../listModel";

// The list's 24-hour heartbeat: one bar per hour, oldest left, from the server's in-memory hourly counters and bumped
// by the pushed checks. One accessible name for the whole strip (24 tab stops per row would bury the row's actions);
// each bar's hover title names its hour and "N of M checks up". Colours: the shared availability scale.

// Formatters are costly to create: one pair per language. Every row shows the same 24 hours: each is formatted once.
const formatters = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();
const hourTexts = new Map<string, string>();
function formatHour(start: number, locale: string): string {
  const key = `${locale} ${start}`;
  let text = hourTexts.get(key);
  if (text === undefined) {
    if (hourTexts.size > 200) hourTexts.clear();
    text = formatHourUncached(start, locale);
    hourTexts.set(key, text);
  }
  return text;
}

function formatHourUncached(start: number, locale: string): string {
  let f = formatters.get(locale);
  if (!f) {
    f = {
      day: new Intl.DateTimeFormat(locale, { month: "short", day: "numeric" }),
      time: new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
    };
    formatters.set(locale, f);
  }
  return `${f.day.format(start)} ${f.time.format(start)}–${f.time.format(start + HOUR_MS)}`;
}

export const HeartbeatStrip = memo(function HeartbeatStrip({ heartbeat, hour, "data-testid": testId }: { heartbeat: HeartbeatPair[]; hour: number; "data-testid"?: string }) {
  const { t, i18n } = useTranslation();
  const now = useHour(); // the page's one clock: a quiet strip still rolls when the hour turns
  const pairs = rollHeartbeat(heartbeat, hour, now);
  const last = Math.max(hour, now);
  const totals = heartbeatTotals(pairs);
  const label =
    totals.checks === 0 ? t("monitors.list.heartbeat.empty") : t("monitors.list.heartbeat.label", { up: totals.up, total: totals.checks });
  return (
    <div role="img" aria-label={label} className="flex h-2.5 items-stretch gap-px" data-testid={testId} data-up={totals.up} data-checks={totals.checks}>
      {pairs.map((pair, i) => {
        const start = (last - (HEARTBEAT_HOURS - 1 - i)) * HOUR_MS;
        const time = formatHour(start, i18n.language);
        const level = countsLevel(pair[0], pair[1]);
        return (
          <span
            key={start}
            title={pair[0] === 0 ? t("monitors.list.heartbeat.hourEmpty", { time }) : t("monitors.list.heartbeat.hour", { time, up: pair[1], total: pair[0] })}
            data-level={level}
            data-checks={pair[0]}
            data-up={pair[1]}
            data-testid="heartbeat-bar"
            className={`w-1 rounded-[1px] sm:w-[5px] ${LEVEL_COLOR[level]}`}
          />
        );
      })}
    </div>
  );
});
