import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { MAINTENANCE_KINDS, type ScheduleKind } from "../../api/maintenance";
import { Chip, Field, SelectInput, TextInput } from "../../components/form";
import { isRecurring, toggle, type DraftErrors, type WindowDraft } from "./model";
import { ZoneSelect } from "./ZoneSelect";

/** The schedule part of the maintenance form: the kind, then the fields that kind needs, the zone, the active range. */
export function ScheduleFields({ draft, errors, onChange }: { draft: WindowDraft; errors: DraftErrors; onChange: (patch: Partial<WindowDraft>) => void }) {
  const { t, i18n } = useTranslation();
  const weekdayNames = useMemo(() => {
    const f = new Intl.DateTimeFormat(i18n.language, { weekday: "short", timeZone: "UTC" });
    // 2024-01-01 was a Monday: ISO weekday n is that date plus n - 1 days.
    return [1, 2, 3, 4, 5, 6, 7].map((d) => ({ d, name: f.format(Date.UTC(2024, 0, d)) }));
  }, [i18n.language]);
  const error = (field: keyof DraftErrors) => (errors[field] ? t(`maintenance.errors.${errors[field]}` as never) : undefined);
  const recurring = isRecurring(draft.kind);

  return (
    <div className="space-y-5">
      <Field label={t("maintenance.form.kind")}>
        {(id) => (
          <SelectInput id={id} value={draft.kind} onChange={(e) => onChange({ kind: e.target.value as ScheduleKind })} data-testid="maintenance-kind">
            {MAINTENANCE_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`maintenance.kinds.${k}`)}
              </option>
            ))}
          </SelectInput>
        )}
      </Field>

      {(draft.kind === "once" || draft.kind === "manual") && (
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label={t("maintenance.form.startsAt")} error={error("startsAt")}>
            {(id) => <TextInput id={id} type="datetime-local" value={draft.startsAt} onChange={(e) => onChange({ startsAt: e.target.value })} data-testid="maintenance-starts-at" />}
          </Field>
          {draft.kind === "once" ? (
            <Field label={t("maintenance.form.endsAt")} error={error("endsAt")} errorTestId="maintenance-error-ends-at">
              {(id) => <TextInput id={id} type="datetime-local" value={draft.endsAt} onChange={(e) => onChange({ endsAt: e.target.value })} data-testid="maintenance-ends-at" />}
            </Field>
          ) : (
            <p className="self-end pb-2 text-sm text-slate-500">{t("maintenance.form.manualHint")}</p>
          )}
        </div>
      )}

      {recurring && (
        <div className="grid gap-5 sm:grid-cols-2">
          {draft.kind === "cron" ? (
            <Field label={t("maintenance.form.cron")} hint={t("maintenance.form.cronHint")} error={error("cron")}>
              {(id) => <TextInput id={id} value={draft.cron} onChange={(e) => onChange({ cron: e.target.value })} className="font-mono" data-testid="maintenance-cron" />}
            </Field>
          ) : (
            <Field label={t("maintenance.form.time")} error={error("time")}>
              {(id) => <TextInput id={id} type="time" value={draft.time} onChange={(e) => onChange({ time: e.target.value })} data-testid="maintenance-time" />}
            </Field>
          )}
          <Field label={t("maintenance.form.duration")} hint={t("maintenance.form.durationHint")} error={error("durationMinutes")} errorTestId="maintenance-error-duration">
            {(id) => (
              <TextInput id={id} type="number" min={1} inputMode="numeric" value={draft.durationMinutes} onChange={(e) => onChange({ durationMinutes: e.target.value })} data-testid="maintenance-duration" />
            )}
          </Field>
        </div>
      )}

      {draft.kind === "weekly" && (
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">{t("maintenance.form.weekdays")}</legend>
          <div className="mt-2 flex flex-wrap gap-1.5" data-testid="maintenance-weekdays">
            {weekdayNames.map(({ d, name }) => (
              <Chip key={d} on={draft.weekdays.includes(d)} label={name} onClick={() => onChange({ weekdays: toggle(draft.weekdays, d) })} testId={`maintenance-weekday-${d}`} />
            ))}
          </div>
          {errors.weekdays && <p className="mt-1 text-xs font-medium text-red-600">{error("weekdays")}</p>}
        </fieldset>
      )}

      {draft.kind === "monthly" && (
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">{t("maintenance.form.monthDays")}</legend>
          <div className="mt-2 flex flex-wrap gap-1.5" data-testid="maintenance-month-days">
            {Array.from({ length: 31 }, (_, i) => i + 1).map((d) => (
              <Chip key={d} on={draft.monthDays.includes(d)} label={String(d)} onClick={() => onChange({ monthDays: toggle(draft.monthDays, d) })} testId={`maintenance-month-day-${d}`} />
            ))}
            <Chip on={draft.monthDays.includes(-1)} label={t("maintenance.lastDay")} onClick={() => onChange({ monthDays: toggle(draft.monthDays, -1) })} testId="maintenance-month-day-last" />
          </div>
          <p className="mt-1 text-xs text-slate-500">{t("maintenance.form.monthDaysHint")}</p>
          {errors.monthDays && <p className="mt-1 text-xs font-medium text-red-600">{error("monthDays")}</p>}
        </fieldset>
      )}

      <Field label={t("maintenance.form.timezone")} hint={t("maintenance.form.timezoneHint")} error={error("timezone")}>
        {(id) => <ZoneSelect id={id} value={draft.timezone} onChange={(timezone) => onChange({ timezone })} testId="maintenance-timezone" />}
      </Field>

      {recurring && (
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label={t("maintenance.form.activeFrom")} optionalLabel={t("common.optional")}>
            {(id) => <TextInput id={id} type="date" value={draft.activeFrom} onChange={(e) => onChange({ activeFrom: e.target.value })} data-testid="maintenance-active-from" />}
          </Field>
          <Field label={t("maintenance.form.activeUntil")} optionalLabel={t("common.optional")} error={error("activeUntil")}>
            {(id) => <TextInput id={id} type="date" value={draft.activeUntil} onChange={(e) => onChange({ activeUntil: e.target.value })} data-testid="maintenance-active-until" />}
          </Field>
        </div>
      )}
    </div>
  );
}
