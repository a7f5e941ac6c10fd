// A report's period: a calendar month ("2026-10"), quarter ("2026-Q4"), year ("2026") or a range of days
// ("2026-10-03..2026-10-17", both days included), read in an IANA zone: it starts at the first day's midnight there and
// ends at the midnight after the last day, so a month in Europe/Berlin is 743 or 745 hours long across a daylight-saving
// change, never a UTC month.

export type PeriodKind = "month" | "quarter" | "year" | "range";

export interface Period {
  kind: PeriodKind;
  /** As asked: "2026-10", "2026-Q4", "2026", "2026-10-03..2026-10-17". */
  label: string;
  zone: string;
  /** Unix ms, inclusive. */
  from: number;
  /** Unix ms, exclusive. */
  to: number;
}

/** The longest range a report covers (the rollups are kept a year by default; a little more for leap years and edges). */
export const MAX_REPORT_DAYS = 400;

export function isTimeZone(zone: string): boolean {
  try {
    Temporal.Now.instant().toZonedDateTimeISO(zone);
    return true;
  } catch {
    return false;
  }
}

const midnight = (date: Temporal.PlainDate, zone: string) => date.toZonedDateTime({ timeZone: zone }).epochMilliseconds;

function plainDate(text: string): Temporal.PlainDate | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  try {
    return Temporal.PlainDate.from(text, { overflow: "reject" });
  } catch {
    return null;
  }
}

/** The period `label` names in `zone`, or an error sentence. */
export function parsePeriod(label: string, zone: string): Period | string {
  if (!isTimeZone(zone)) return "zone must be an IANA time zone (e.g. Europe/Berlin or UTC)";
  const text = label.trim();
  let first: Temporal.PlainDate | null = null;
  let after: Temporal.PlainDate | null = null;
  let kind: PeriodKind;
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})$/.exec(text))) {
    kind = "year";
    first = Temporal.PlainDate.from({ year: Number(m[1]), month: 1, day: 1 });
    after = first.add({ years: 1 });
  } else if ((m = /^(\d{4})-Q([1-4])$/i.exec(text))) {
    kind = "quarter";
    first = Temporal.PlainDate.from({ year: Number(m[1]), month: (Number(m[2]) - 1) * 3 + 1, day: 1 });
    after = first.add({ months: 3 });
  } else if ((m = /^(\d{4})-(\d{2})$/.exec(text)) && Number(m[2]) >= 1 && Number(m[2]) <= 12) {
    kind = "month";
    first = Temporal.PlainDate.from({ year: Number(m[1]), month: Number(m[2]), day: 1 });
    after = first.add({ months: 1 });
  } else if ((m = /^(\S+)\.\.(\S+)$/.exec(text))) {
    kind = "range";
    first = plainDate(m[1]!);
    const last = plainDate(m[2]!);
    if (!first || !last) return "a range is two days, YYYY-MM-DD..YYYY-MM-DD";
    if (Temporal.PlainDate.compare(last, first) < 0) return "the range's last day is before its first";
    after = last.add({ days: 1 });
    if (first.until(after).days > MAX_REPORT_DAYS) return `a report covers at most ${MAX_REPORT_DAYS} days`;
  } else {
    return "period must be a year (2026), a quarter (2026-Q4), a month (2026-10) or a range (2026-10-03..2026-10-17)";
  }
  if (first.year < 2000 || first.year > 9999) return "period must be a year from 2000";
  return { kind, label: kind === "quarter" ? text.toUpperCase() : text, zone, from: midnight(first, zone), to: midnight(after, zone) };
}
