// The next two weeks of a schedule: a strip with one coloured piece per stretch of duty (its width its share of the
// fortnight), then the list — who, from, to, how long (a day across a clock change is 23 or 25 hours), and whether an
// override put them there. Times in the schedule's zone.
//
// data-testids: `oncall-shifts`, `oncall-timeline` (pieces `timeline-{i}`), `oncall-shift-list`, `shift-{i}` (with
//   data-user and data-override), `oncall-shifts-empty`.
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { OnCallSchedule, OnCallShift } from "../../api/oncall";
import { Card, CardHeader } from "../../components/Card";
import { formatDuration } from "../../components/format";
import { useDurationUnits } from "../../components/time";
import { Badge } from "../notifications/parts";
import { colourOf, fullOptions } from "./model";
import { Dot } from "./parts";

export function ShiftsCard({ schedule, shifts, range }: { schedule: OnCallSchedule; shifts: OnCallShift[]; range: { from: number; to: number } }) {
  const { t, i18n } = useTranslation();
  const units = useDurationUnits();
  const format = useMemo(() => new Intl.DateTimeFormat(i18n.language, fullOptions(schedule.timeZone)), [i18n.language, schedule.timeZone]);
  const span = range.to - range.from;
  const share = (s: OnCallShift) => ((Math.min(s.end, range.to) - Math.max(s.start, range.from)) / span) * 100;

  return (
    <Card data-testid="oncall-shifts">
      <CardHeader title={t("oncall.shifts.title")} description={t("oncall.shifts.description", { zone: schedule.timeZone })} />
      {shifts.length === 0 ? (
        <p data-testid="oncall-shifts-empty" className="px-5 py-6 text-sm text-slate-500 sm:px-6">
          {t("oncall.shifts.empty")}
        </p>
      ) : (
        <>
          <div data-testid="oncall-timeline" className="relative mx-4 mt-4 flex h-4 overflow-hidden rounded-full bg-slate-100 sm:mx-6" aria-hidden>
            {shifts.map((s, i) => (
              <span
                key={`${s.start}-${i}`}
                data-testid={`timeline-${i}`}
                title={`${s.username}: ${format.format(s.start)} – ${format.format(s.end)}`}
                className={`absolute inset-y-0 border-r border-white ${colourOf(s.userId)} ${s.overrideId !== null ? "opacity-70" : ""}`}
                style={{ left: `${(Math.max(0, s.start - range.from) / span) * 100}%`, width: `${share(s)}%` }}
              />
            ))}
          </div>
          <ol data-testid="oncall-shift-list" className="mt-3 divide-y divide-slate-100">
            {shifts.map((s, i) => (
              <li key={`${s.start}-${i}`} data-testid={`shift-${i}`} data-user={s.userId} data-override={s.overrideId ?? ""} className="flex flex-wrap items-start gap-x-4 gap-y-1 px-4 py-2.5 text-sm sm:px-6">
                <span className="flex min-w-0 flex-1 basis-32 items-start gap-2 font-medium text-slate-900">
                  <Dot userId={s.userId} />
                  <span className="min-w-0 break-words [overflow-wrap:anywhere]">{s.username}</span>
                  {s.overrideId !== null && <Badge tone="amber">{t("oncall.shifts.override")}</Badge>}
                </span>
                <span className="basis-full text-slate-600 sm:basis-auto">
                  {format.format(s.start)} – {format.format(s.end)}
                  <span className="ml-2 text-xs text-slate-500">({formatDuration((s.end - s.start) / 1000, units)})</span>
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </Card>
  );
}
