// /oncall/new and /oncall/edit/:id: a schedule's name, its zone, daily or weekly hand-overs (the weekday for weekly), the
// hand-over time, the day the first shift starts, and its people in order. Checked here first by the API's limits (red
// text at the field, nothing sent while anything is wrong), then by the server, whose refusal shows above the buttons.
//
// data-testids: `oncall-form`, `oncall-name`, `oncall-zone`, `oncall-rotation`, `oncall-weekday`, `oncall-time`,
//   `oncall-start`, `oncall-error-{name|zone|weekday|time|start}`, the people (ParticipantsEditor.tsx),
//   `oncall-form-error`, `oncall-fix-errors`, `oncall-cancel`, `oncall-save`, `oncall-editor-loading`, `oncall-editor-error`.
import { useCallback, useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation, useParams } from "wouter";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { createSchedule, getSchedule, listPeople, ROTATIONS, SCHEDULE_LIMITS, updateSchedule, type OnCallPerson, type OnCallSchedule } from "../../api/oncall";
import { Button, ButtonLink } from "../../components/Button";
import { Card, CardHeader, PageHeader } from "../../components/Card";
import { Field, FormMessage, SelectInput, TextInput } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";
import { browserZone } from "../maintenance/zones";
import { ZoneSelect } from "../maintenance/ZoneSelect";
import { draftOf, emptyDraft, inputOf, validateDraft, type ScheduleDraft, type ScheduleField } from "./model";
import { ParticipantsEditor } from "./ParticipantsEditor";
import { useWeekdayNames } from "./parts";

interface Loaded {
  schedule: OnCallSchedule | null;
  people: OnCallPerson[];
}

export default function ScheduleEditor() {
  const { t } = useTranslation();
  const params = useParams<{ id?: string }>();
  const id = params.id ? Number(params.id) : null;
  const title = t(id ? "oncall.form.editTitle" : "oncall.form.createTitle");
  useDocumentTitle(title);
  const fetch = useCallback(async (): Promise<Loaded> => {
    const [schedule, people] = await Promise.all([id ? getSchedule(id).then((r) => r.schedule) : null, listPeople()]);
    return { schedule, people: people.people ?? [] };
  }, [id]);
  const { state, reload } = useLoad(fetch, t("oncall.fetchFailed"));
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={title}
        actions={
          <ButtonLink href={id ? `/oncall/${id}` : "/oncall"} variant="secondary" data-testid="oncall-back">
            {t("oncall.backToList")}
          </ButtonLink>
        }
      />
      {state.phase === "loading" && <LoadingMessage data-testid="oncall-editor-loading">{t("oncall.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError data-testid="oncall-editor-error" message={state.message} onRetry={() => void reload()} />}
      {state.phase === "loaded" && <ScheduleForm loaded={state.data} />}
    </div>
  );
}

function ScheduleForm({ loaded }: { loaded: Loaded }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const { schedule, people } = loaded;
  const [draft, setDraft] = useState<ScheduleDraft>(() => (schedule ? draftOf(schedule) : emptyDraft(browserZone(), Date.now())));
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState("");
  const errors = useMemo(() => validateDraft(draft), [draft]);
  const error = (field: ScheduleField) => (tried && errors[field] ? t(errors[field]!, { nameMax: SCHEDULE_LIMITS.name, max: SCHEDULE_LIMITS.participants }) : undefined);
  const update = (patch: Partial<ScheduleDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setFailure("");
  };
  const weekday = useWeekdayNames();
  const names = useMemo(() => new Map([...(schedule?.participants ?? []), ...people].map((p) => [p.id, p.username])), [schedule, people]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    setFailure("");
    if (Object.keys(errors).length) return;
    setSaving(true);
    try {
      const reply = schedule ? await updateSchedule(schedule.id, inputOf(draft)) : await createSchedule(inputOf(draft));
      toast.success(t(schedule ? "oncall.updated" : "oncall.created"));
      navigate(`/oncall/${reply.schedule.id}`);
    } catch (err) {
      setFailure(err instanceof ApiError && err.code === "USER_NOT_FOUND" ? t("oncall.form.errors.personGone") : errorMessage(err, t("oncall.saveFailed")));
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-6" data-testid="oncall-form">
      <Card>
        <CardHeader title={schedule ? `${t("oncall.form.editTitle")}: ${schedule.name}` : t("oncall.form.createTitle")} description={t("oncall.form.about")} />
        <div className="space-y-5 px-5 py-5 sm:px-6">
          <Field label={t("oncall.form.name")} error={error("name")} errorTestId="oncall-error-name">
            {(id) => (
              <TextInput id={id} autoComplete="off" maxLength={SCHEDULE_LIMITS.name + 20} value={draft.name} placeholder={t("oncall.form.namePlaceholder")} onChange={(e) => update({ name: e.target.value })} aria-invalid={error("name") ? true : undefined} data-testid="oncall-name" />
            )}
          </Field>
          <Field label={t("oncall.form.zone")} hint={t("oncall.form.zoneHint")} error={error("timeZone")} errorTestId="oncall-error-zone">
            {(id) => <ZoneSelect id={id} value={draft.timeZone} onChange={(timeZone) => update({ timeZone })} testId="oncall-zone" />}
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label={t("oncall.form.rotation")}>
              {(id) => (
                <SelectInput id={id} value={draft.rotation} onChange={(e) => update({ rotation: e.target.value as ScheduleDraft["rotation"] })} data-testid="oncall-rotation">
                  {ROTATIONS.map((r) => (
                    <option key={r} value={r}>
                      {t(`oncall.form.rotations.${r}`)}
                    </option>
                  ))}
                </SelectInput>
              )}
            </Field>
            {draft.rotation === "weekly" && (
              <Field label={t("oncall.form.weekday")} error={error("handoverWeekday")} errorTestId="oncall-error-weekday">
                {(id) => (
                  <SelectInput id={id} value={draft.handoverWeekday} onChange={(e) => update({ handoverWeekday: e.target.value })} data-testid="oncall-weekday">
                    {[1, 2, 3, 4, 5, 6, 7].map((d) => (
                      <option key={d} value={String(d)}>
                        {weekday(d)}
                      </option>
                    ))}
                  </SelectInput>
                )}
              </Field>
            )}
            <Field label={t("oncall.form.time")} hint={t("oncall.form.timeHint")} error={error("handoverTime")} errorTestId="oncall-error-time">
              {(id) => <TextInput id={id} type="time" value={draft.handoverTime} onChange={(e) => update({ handoverTime: e.target.value })} data-testid="oncall-time" />}
            </Field>
            <Field label={t("oncall.form.startDate")} hint={t("oncall.form.startDateHint")} error={error("startDate")} errorTestId="oncall-error-start">
              {(id) => <TextInput id={id} type="date" value={draft.startDate} onChange={(e) => update({ startDate: e.target.value })} data-testid="oncall-start" />}
            </Field>
          </div>
        </div>
      </Card>

      <ParticipantsEditor value={draft.participants} names={names} people={people} onChange={(participants) => update({ participants })} error={error("participants")} />

      <div className="flex flex-wrap items-center justify-end gap-3">
        {failure ? (
          <div data-testid="oncall-form-error" className="min-w-0">
            <FormMessage kind="error">{failure}</FormMessage>
          </div>
        ) : (
          tried &&
          Object.keys(errors).length > 0 && (
            <p role="alert" className="text-sm text-red-600" data-testid="oncall-fix-errors">
              {t("oncall.form.fixErrors")}
            </p>
          )
        )}
        <ButtonLink href={schedule ? `/oncall/${schedule.id}` : "/oncall"} variant="secondary" data-testid="oncall-cancel">
          {t("common.cancel")}
        </ButtonLink>
        <Button type="submit" busy={saving} data-testid="oncall-save">
          {schedule ? t("common.save") : t("oncall.form.create")}
        </Button>
      </div>
    </form>
  );
}
