import { memo } from "react";
import { useTranslation } from "react-i18next";
import type { RecentCheck } from "../../api/monitors";
import { formatWithZone } from "../../components/time";
import { translateCheckError } from "./checkError";
import { formatMs } from "./model";

export const STRIP_LENGTH = 50;

/** Appends pushed checks, keeping the newest STRIP_LENGTH (oldest first); a repeated check is ignored. */
export function appendCheck(checks: readonly RecentCheck[] | undefined, check: RecentCheck): RecentCheck[] {
  const list = checks ?? [];
  if (list.length > 0 && list[list.length - 1]!.time >= check.time) return list as RecentCheck[];
  const next = [...list, check];
  return next.length > STRIP_LENGTH ? next.slice(next.length - STRIP_LENGTH) : next;
}

/**
 * The last checks as one cell each, oldest left: green up, red down, grey for slots not filled yet. Each cell says
 * on hover and to keyboard/screen-reader users when the check ran (with its zone), its verdict, response time,
 * HTTP status and error.
 */
export const CheckStrip = memo(function CheckStrip({ checks, size = "md", "data-testid": testId }: { checks: readonly RecentCheck[]; size?: "sm" | "md"; "data-testid"?: string }) {
  const { t, i18n } = useTranslation();
  const empty = STRIP_LENGTH - checks.length;
  const cell = size === "sm" ? "h-4 w-[3px] sm:w-1" : "h-7 min-w-[3px] flex-1";
  const describe = (c: RecentCheck) =>
    [
      formatWithZone(c.time, i18n.language),
      t(`monitors.status.${c.status}`),
      c.httpStatus !== null ? `HTTP ${c.httpStatus}` : null,
      c.responseTime !== null ? formatMs(c.responseTime) : null,
      c.error ? translateCheckError(t, c.error) : null,
    ]
      .filter(Boolean)
      .join(" · ");
  return (
    <div role="list" aria-label={t("monitors.strip.label", { count: checks.length })} className={`flex items-end gap-px ${size === "md" ? "w-full" : ""}`} data-testid={testId} data-count={checks.length}>
      {Array.from({ length: empty }, (_, i) => (
        <span key={`e${i}`} aria-hidden="true" className={`${cell} rounded-sm bg-slate-100`} />
      ))}
      {checks.map((c) => {
        const text = describe(c);
        return (
          <span
            key={c.time}
            role="listitem"
            tabIndex={0}
            title={text}
            aria-label={text}
            data-status={c.status}
            data-testid="check-cell"
            className={`${cell} rounded-sm outline-offset-1 focus-visible:outline-2 focus-visible:outline-indigo-500 ${
              c.status === "up" ? "bg-emerald-500 hover:bg-emerald-600" : "bg-red-500 hover:bg-red-600"
            }`}
          />
        );
      })}
    </div>
  );
});
