// A schedule's overrides not yet ended — someone covering for a day or a range — and, for editors, adding one (a person,
// from, to: wall times in the schedule's zone, whatever the browser's) and deleting one. Where overrides overlap the one
// added last counts, which the list says.
//
// data-testids: `oncall-overrides`, `oncall-overrides-empty`, `override-row-{id}`, `override-delete-{id}`,
//   `override-form`, `override-person`, `override-from`, `override-to`, `override-error-{person|from|to}`,
//   `override-form-error`, `override-add`.
import { useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { addOverride, deleteOverride, type OnCallOverride, type OnCallPerson, type OnCallSchedule } from "../../api/oncall";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { Field, FormMessage, SelectInput, TextInput } from "../../components/form";
import { EditorOnly } from "../../components/guards";
import { PlusIcon } from "../../components/icons";
import { checkOverride, emptyOverride, fullOptions, type OverrideDraft, type OverrideErrors } from "./model";
import { Dot } from "./parts";

export function OverridesCard({ schedule, people, onChanged }: { schedule: OnCallSchedule; people: OnCallPerson[]; onChanged: () => void }) {
  const { t, i18n } = useTranslation();
  const [deleting, setDeleting] = useState<number | null>(null);
  const format = useMemo(() => new Intl.DateTimeFormat(i18n.language, fullOptions(schedule.timeZone)), [i18n.language, schedule.timeZone]);

  const remove = async (o: OnCallOverride) => {
    setDeleting(o.id);
    try {
      await deleteOverride(schedule.id, o.id);
      toast.success(t("oncall.overrides.deleted"));
      onChanged();
    } catch (err) {
      toast.error(errorMessage(err, t("oncall.overrides.deleteFailed")));
    } finally {
      setDeleting(null);
    }
  };

  return (
    <Card data-testid="oncall-overrides">
      <CardHeader title={t("oncall.overrides.title")} description={t("oncall.overrides.description")} />
      {schedule.overrides.length === 0 ? (
        <p data-testid="oncall-overrides-empty" className="px-5 py-6 text-sm text-slate-500 sm:px-6">
          {t("oncall.overrides.empty")}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {schedule.overrides.map((o) => (
            <li key={o.id} data-testid={`override-row-${o.id}`} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-6">
              <div className="flex min-w-0 flex-1 basis-56 items-start gap-2">
                <Dot userId={o.userId} />
                <div className="min-w-0 text-sm">
                  <p className="font-medium text-slate-900 break-words [overflow-wrap:anywhere]">{o.username}</p>
                  <p className="text-slate-600">
                    {format.format(o.startsAt)} – {format.format(o.endsAt)}
                  </p>
                  {o.createdBy && <p className="text-xs text-slate-500">{t("oncall.overrides.by", { name: o.createdBy.username })}</p>}
                </div>
              </div>
              <EditorOnly>
                <Button variant="dangerGhost" size="sm" busy={deleting === o.id} onClick={() => void remove(o)} data-testid={`override-delete-${o.id}`}>
                  {t("common.delete")}
                </Button>
              </EditorOnly>
            </li>
          ))}
        </ul>
      )}
      <EditorOnly>
        <OverrideForm schedule={schedule} people={people} onAdded={onChanged} />
      </EditorOnly>
    </Card>
  );
}

function OverrideForm({ schedule, people, onAdded }: { schedule: OnCallSchedule; people: OnCallPerson[]; onAdded: () => void }) {
  const { t } = useTranslation();
  const zone = schedule.timeZone;
  const [draft, setDraft] = useState<OverrideDraft>(() => emptyOverride(Date.now(), zone));
  const [errors, setErrors] = useState<OverrideErrors>({});
  const [failure, setFailure] = useState("");
  const [saving, setSaving] = useState(false);
  const change = (patch: Partial<OverrideDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors({});
    setFailure("");
  };
  const error = (field: keyof OverrideErrors) => (errors[field] ? t(errors[field]!) : undefined);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = checkOverride(draft, zone);
    if (checked.errors) return setErrors(checked.errors);
    setSaving(true);
    try {
      await addOverride(schedule.id, checked.input);
      toast.success(t("oncall.overrides.added"));
      setDraft((d) => ({ ...d, userId: "" }));
      onAdded();
    } catch (err) {
      setFailure(errorMessage(err, t("oncall.overrides.saveFailed")));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="override-form" className="space-y-4 border-t border-slate-100 px-4 py-4 sm:px-6">
      <h3 className="text-sm font-semibold text-slate-900">{t("oncall.overrides.add")}</h3>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label={t("oncall.overrides.person")} error={error("userId")} errorTestId="override-error-person">
          {(id) => (
            <SelectInput id={id} value={draft.userId} onChange={(e) => change({ userId: e.target.value })} data-testid="override-person">
              <option value="">{t("oncall.overrides.choose")}</option>
              {people.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.username}
                </option>
              ))}
            </SelectInput>
          )}
        </Field>
        <Field label={t("oncall.overrides.from")} error={error("from")} errorTestId="override-error-from">
          {(id) => <TextInput id={id} type="datetime-local" value={draft.from} onChange={(e) => change({ from: e.target.value })} data-testid="override-from" />}
        </Field>
        <Field label={t("oncall.overrides.to")} error={error("to")} errorTestId="override-error-to">
          {(id) => <TextInput id={id} type="datetime-local" value={draft.to} onChange={(e) => change({ to: e.target.value })} data-testid="override-to" />}
        </Field>
      </div>
      <p className="text-xs text-slate-500">{t("oncall.overrides.zoneHint", { zone })}</p>
      <div className="flex flex-wrap items-center justify-end gap-3">
        {failure && (
          <div data-testid="override-form-error" className="min-w-0">
            <FormMessage kind="error">{failure}</FormMessage>
          </div>
        )}
        <Button type="submit" busy={saving} data-testid="override-add">
          <PlusIcon className="size-4" />
          {t("oncall.overrides.addButton")}
        </Button>
      </div>
    </form>
  );
}
