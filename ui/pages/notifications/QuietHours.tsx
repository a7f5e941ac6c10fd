// Quiet hours in forms and lists: the fields (a switch, off by default; from, until, zone, weekdays, whether down
// alerts wait too), used by the channel form and the profile's "My quiet hours" card, and a one-line summary.
//
// data-testids (after the given prefix, e.g. `channel-quiet`): `{prefix}` (the switch), `{prefix}-from`, `{prefix}-to`,
// `{prefix}-zone`, `{prefix}-day-{1..7}`, `{prefix}-hold-down`, `{prefix}-error-{field}`.
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { QuietHours } from "../../api/notifications";
import { Chip, Field, TextInput, Toggle } from "../../components/form";
import { ZoneSelect } from "../maintenance/ZoneSelect";
import { ALL_DAYS, toggleDay, type QuietDraft, type QuietErrors } from "./quietDraft";

/** Short weekday names in the interface's language, Monday first. */
function useWeekdays(style: "short" | "long" = "short") {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const f = new Intl.DateTimeFormat(i18n.language, { weekday: style, timeZone: "UTC" });
    // 2024-01-01 was a Monday: ISO weekday n is that date plus n - 1 days.
    return new Map<number, string>(ALL_DAYS.map((d) => [d, f.format(Date.UTC(2024, 0, d))]));
  }, [i18n.language, style]);
}

export function QuietHoursFields({ draft, errors = {}, onChange, testId, hint }: { draft: QuietDraft; errors?: QuietErrors; onChange: (next: QuietDraft) => void; testId: string; hint?: string }) {
  const { t } = useTranslation();
  const weekdays = useWeekdays();
  const set = (patch: Partial<QuietDraft>) => onChange({ ...draft, ...patch });
  const error = (field: keyof QuietErrors) => (errors[field] ? t(errors[field] as never) : undefined);

  return (
    <fieldset className="space-y-4">
      <Toggle name={`${testId}-on`} label={t("quietHours.toggle")} hint={hint ?? t("quietHours.hint")} checked={draft.on} onChange={(on) => set({ on })} data-testid={testId} />
      {draft.on && (
        <div className="space-y-4 rounded-lg bg-slate-50 p-3 ring-1 ring-inset ring-slate-200 sm:p-4">
          <div className="grid grid-cols-2 gap-3">
            <Field label={t("quietHours.from")} error={error("from")} errorTestId={`${testId}-error-from`}>
              {(id) => <TextInput id={id} type="time" required value={draft.from} onChange={(e) => set({ from: e.target.value })} data-testid={`${testId}-from`} />}
            </Field>
            <Field label={t("quietHours.to")} error={error("to")} errorTestId={`${testId}-error-to`}>
              {(id) => <TextInput id={id} type="time" required value={draft.to} onChange={(e) => set({ to: e.target.value })} data-testid={`${testId}-to`} />}
            </Field>
          </div>
          <p className="-mt-2 text-xs text-slate-500">{t("quietHours.toHint")}</p>
          <Field label={t("quietHours.timeZone")} error={error("timeZone")} errorTestId={`${testId}-error-timeZone`}>
            {(id) => (
<ZoneSelect id={id} value={draft.timeZone} onChange={(timeZone) => set({ timeZone })} testId={`${testId}-zone`} />
            )}
          </Field>
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">{t("quietHours.days")}</legend>
            <div className="mt-2 flex flex-wrap gap-1.5">
              {ALL_DAYS.map((d) => (
                <Chip key={d} on={draft.days.includes(d)} label={weekdays.get(d)!} onClick={() => set({ days: toggleDay(draft.days, d) })} testId={`${testId}-day-${d}`} />
              ))}
            </div>
            {error("days") ? (
              <p data-testid={`${testId}-error-days`} className="mt-1 text-xs font-medium text-red-600">
                {error("days")}
              </p>
            ) : (
              <p className="mt-1 text-xs text-slate-500">{t("quietHours.daysHint")}</p>
            )}
          </fieldset>
          <Toggle name={`${testId}-hold-down`} label={t("quietHours.holdDown")} hint={t("quietHours.holdDownHint")} checked={draft.holdDown} onChange={(holdDown) => set({ holdDown })} data-testid={`${testId}-hold-down`} />
        </div>
      )}
    </fieldset>
  );
}

/** "Quiet 22:00–07:00 (Europe/Berlin), Mon, Fri" — what a list shows of quiet hours. */
export function QuietSummary({ quietHours, testId }: { quietHours: QuietHours; testId?: string }) {
  const { t, i18n } = useTranslation();
  const weekdays = useWeekdays();
  const days = quietHours.days ? quietHours.days.map((d) => weekdays.get(d)).join(i18n.language.startsWith("zh") ? "、" : ", ") : t("quietHours.everyDay");
  return (
    <span data-testid={testId} className="text-xs text-slate-500">
      {t("quietHours.summary", { from: quietHours.from, to: quietHours.to, zone: quietHours.timeZone, days })}
      {quietHours.holdDown && ` · ${t("quietHours.holdsDown")}`}
    </span>
  );
}
