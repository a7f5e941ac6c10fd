// The report screen's choices as the API's period text ("2026-10", "2026-Q4", "2026", "2026-10-03..2026-10-17").
export type PeriodKind = "month" | "quarter" | "year" | "range";

export interface PeriodChoice {
  kind: PeriodKind;
  /** month: yyyy-mm; quarter: yyyy-Qn; year: yyyy; range: from and to (yyyy-mm-dd). */
  month: string;
  quarter: string;
  year: string;
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The last full month, its quarter and year, and the last 7 days: what a report is usually asked for. */
export function defaultChoice(now = new Date()): PeriodChoice {
  const lastMonth = new Date(now.getFullYear(), now.getMonth() - 1, 1);
  const weekAgo = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 7);
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  const day = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return {
    kind: "month",
    month: `${lastMonth.getFullYear()}-${pad(lastMonth.getMonth() + 1)}`,
    quarter: `${now.getFullYear()}-Q${Math.floor(now.getMonth() / 3) + 1}`,
    year: String(now.getFullYear()),
    from: day(weekAgo),
    to: day(yesterday),
  };
}

export function periodText(c: PeriodChoice): string {
  if (c.kind === "month") return c.month;
  if (c.kind === "quarter") return c.quarter;
  if (c.kind === "year") return c.year;
  return `${c.from}..${c.to}`;
}

/** The choice a period text came from (a link to a report), or null when it is none of the four shapes. */
export function choiceOf(period: string, base = defaultChoice()): PeriodChoice | null {
  if (/^\d{4}-\d{2}$/.test(period)) return { ...base, kind: "month", month: period };
  if (/^\d{4}-Q[1-4]$/i.test(period)) return { ...base, kind: "quarter", quarter: period.toUpperCase() };
  if (/^\d{4}$/.test(period)) return { ...base, kind: "year", year: period };
  const m = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(period);
  return m ? { ...base, kind: "range", from: m[1]!, to: m[2]! } : null;
}

export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
