import { memo, useState, type KeyboardEvent } from "react";
import { createPortal } from "react-dom";
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

const CELL_SIZE = {
  md: "h-7 min-w-[3px] flex-1",
  sm: "h-4 w-[3px] sm:w-1",
  // The list's column: 50 cells of 2 px and 1 px gaps fit its 9.5 rem.
  xs: "h-4 w-[2px] shrink-0",
} as const;

/** Half the tooltip's widest (20 rem) plus a margin: its centre stays this far from the viewport's edges. */
const TIP_HALF_WIDTH = 168;

/** A focused or tapped cell's facts, shown above it (fixed to the viewport: list rows clip what overflows them). */
interface Tip {
  text: string;
  status: RecentCheck["status"];
  x: number;
  y: number;
}

/**
 * The last checks as one cell each, oldest left: green up, red down, grey for slots not filled yet. Each cell says
 * when the check ran (with its zone), its verdict, response time, HTTP status and error: in its title on hover, and in
 * a tooltip when it takes focus — by keyboard (the strip is one tab stop; arrows, Home and End move along it) or by a
 * tap on a touch screen, where there is no hover.
 */
export const CheckStrip = memo(function CheckStrip({
  checks,
  size = "md",
  "data-testid": testId,
}: {
  checks: readonly RecentCheck[];
  size?: keyof typeof CELL_SIZE;
  "data-testid"?: string;
}) {
  const { t, i18n } = useTranslation();
  const [tip, setTip] = useState<Tip | null>(null);
  const [current, setCurrent] = useState<number | null>(null); // the cell holding the tab stop (default: the newest)
  const empty = STRIP_LENGTH - checks.length;
  const cell = CELL_SIZE[size];
  const stop = current !== null && current < checks.length ? current : checks.length - 1;
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
  const show = (el: HTMLElement, c: RecentCheck) => {
    const box = el.getBoundingClientRect();
    setTip({ text: describe(c), status: c.status, x: box.left + box.width / 2, y: box.top });
  };
  const move = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = { ArrowLeft: stop - 1, ArrowRight: stop + 1, Home: 0, End: checks.length - 1 }[e.key];
    if (e.key === "Escape") return setTip(null);
    if (to === undefined || to < 0 || to >= checks.length) return;
    e.preventDefault();
    setCurrent(to);
    (e.currentTarget.querySelectorAll<HTMLElement>("[data-testid=check-cell]")[to] ?? null)?.focus();
  };
  return (
    <div
      role="list"
      aria-label={t("monitors.strip.label", { count: checks.length })}
      className={`flex items-end gap-px ${size === "md" ? "w-full" : ""}`}
      data-testid={testId}
      data-count={checks.length}
      onKeyDown={move}
    >
      {size === "xs" ? (
        // The list's rows: one grey block for the slots not filled yet instead of up to 50 elements per row.
        empty > 0 && <span aria-hidden="true" style={{ width: empty * 3 - 1 }} className="h-4 shrink-0 rounded-sm bg-slate-100" />
      ) : (
        Array.from({ length: empty }, (_, i) => <span key={`e${i}`} aria-hidden="true" className={`${cell} rounded-sm bg-slate-100`} />)
      )}
      {checks.map((c, i) => {
        const text = describe(c);
        return (
          <span
            key={c.time}
            role="listitem"
            tabIndex={i === stop ? 0 : -1}
            title={text}
            aria-label={text}
            data-status={c.status}
            data-testid="check-cell"
            onFocus={(e) => {
              setCurrent(i);
              show(e.currentTarget, c);
            }}
            onBlur={() => setTip(null)}
            // A tap focuses the cell on most browsers; Safari does not focus on tap, so the tap itself shows it too.
            onClick={(e) => show(e.currentTarget, c)}
            className={`${cell} cursor-pointer rounded-sm outline-offset-1 focus-visible:outline-2 focus-visible:outline-indigo-500 ${
              c.status === "up" ? "bg-emerald-500 hover:bg-emerald-600" : "bg-red-500 hover:bg-red-600"
            }`}
          />
        );
      })}
      {tip &&
        createPortal(
          <div
            role="tooltip"
            data-testid="check-tooltip"
            data-status={tip.status}
            style={{ left: Math.min(Math.max(tip.x, TIP_HALF_WIDTH), window.innerWidth - TIP_HALF_WIDTH), top: tip.y - 6 }}
            className="pointer-events-none fixed z-50 max-w-[min(20rem,calc(100vw-1rem))] -translate-x-1/2 -translate-y-full rounded-md bg-slate-900 px-2.5 py-1.5 text-xs text-white shadow-lg"
          >
            {tip.text}
          </div>,
          document.body,
        )}
    </div>
  );
});
