// /maintenance/create and /maintenance/edit/:id: a window's title and description, what it covers (everything, or
// chosen monitors and agents), its schedule with a live preview of the next occurrences, one save.
//
// data-testids: `maintenance-form`, `maintenance-title`, `maintenance-description`, `maintenance-scope-{all|targets}`,
//   `maintenance-error-{title|targets}`, the schedule fields (ScheduleFields.tsx), the preview (SchedulePreview.tsx),
//   the pickers `maintenance-monitors` / `maintenance-agents` (components/TargetPicker.tsx), `maintenance-save`.
import { useCallback, useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation, useParams } from "wouter";
import { listAgents } from "../../api/agents";
import { errorMessage } from "../../api/errors";
import { createMaintenance, getMaintenance, MAINTENANCE_DESCRIPTION_MAX, MAINTENANCE_TITLE_MAX, updateMaintenance, type PublicMaintenance } from "../../api/maintenance";
import { listMonitorNames } from "../../api/monitors";
import { Button, ButtonLink } from "../../components/Button";
import { Card, CardHeader, PageHeader } from "../../components/Card";
import { Field, FormMessage, TextInput } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { TargetPicker, type PickerItem } from "../../components/TargetPicker";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";
import { draftOf, emptyDraft, inputOf, isRecurring, scheduleOf, validateDraft, type DraftErrors, type WindowDraft } from "./model";
import { ScheduleFields } from "./ScheduleFields";
import { SchedulePreview } from "./SchedulePreview";
import { ManagedWarning } from "../../components/Managed";

const TEXTAREA =
  "block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 " +
  "placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-500 focus:outline-none";

interface Loaded {
  window: PublicMaintenance | null;
  monitors: PickerItem[];
  agents: PickerItem[];
}

/** The schedule's own problems: the preview waits until there are none. */
const SCHEDULE_FIELDS: (keyof DraftErrors)[] = ["startsAt", "endsAt", "time", "weekdays", "monthDays", "cron", "durationMinutes", "timezone", "activeUntil"];

export default function MaintenanceEditor() {
  const { t } = useTranslation();
  const params = useParams<{ id?: string }>();
  const id = params.id ? Number(params.id) : null;
  useDocumentTitle(t(id ? "maintenance.editTitle" : "maintenance.createTitle"));
  const fetch = useCallback(async (): Promise<Loaded> => {
    const [window, monitors, agents] = await Promise.all([id ? getMaintenance(id).then((r) => r.window) : null, listMonitorNames(), listAgents()]);
    return {
      window,
      // A group covers its members: the picker says which items are groups.
      monitors: (monitors.monitors ?? []).map((m) => ({ id: m.id, name: m.name, detail: m.type === "group" ? t("monitors.types.group") : m.target })),
      agents: (agents.agents ?? []).map((a) => ({ id: a.id, name: a.name, detail: a.hostname })),
    };
  }, [id, t]);
  const { state, reload } = useLoad(fetch, t("maintenance.fetchFailed"));

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title={t(id ? "maintenance.editTitle" : "maintenance.createTitle")}
        actions={
          <ButtonLink href="/maintenance" variant="secondary" data-testid="maintenance-back">
            {t("maintenance.backToList")}
          </ButtonLink>
        }
      />
      {state.phase === "loading" && <LoadingMessage data-testid="maintenance-loading">{t("maintenance.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError message={state.message} onRetry={() => void reload()} data-testid="maintenance-error" />}
      {id !== null && <ManagedWarning what="maintenance" id={id} />}
      {state.phase === "loaded" && <WindowForm id={id} loaded={state.data} />}
    </div>
  );
}

function WindowForm({ id, loaded }: { id: number | null; loaded: Loaded }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [draft, setDraft] = useState<WindowDraft>(() => (loaded.window ? draftOf(loaded.window) : emptyDraft()));
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState("");
  const errors = useMemo(() => validateDraft(draft), [draft]);
  const shown = tried ? errors : {};
  const update = (patch: Partial<WindowDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const error = (field: keyof DraftErrors) => (shown[field] ? t(`maintenance.errors.${shown[field]}` as never, { max: field === "title" ? MAINTENANCE_TITLE_MAX : MAINTENANCE_DESCRIPTION_MAX }) : undefined);
  const scheduleReady = SCHEDULE_FIELDS.every((f) => !errors[f]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    setFailure("");
    if (Object.keys(errors).length) return;
    setSaving(true);
    try {
      const input = inputOf(draft);
      await (id ? updateMaintenance(id, input) : createMaintenance(input));
      toast.success(t(id ? "maintenance.updated" : "maintenance.created"));
      navigate("/maintenance");
    } catch (err) {
      setFailure(errorMessage(err, t("maintenance.saveFailed")));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-6" data-testid="maintenance-form">
      <Card>
        <CardHeader title={t("maintenance.form.about")} />
        <div className="space-y-5 px-5 py-5 sm:px-6">
          <Field label={t("maintenance.form.title")} error={error("title")} errorTestId="maintenance-error-title">
            {(fieldId) => (
              <TextInput id={fieldId} value={draft.title} maxLength={MAINTENANCE_TITLE_MAX} onChange={(e) => update({ title: e.target.value })} placeholder={t("maintenance.form.titlePlaceholder")} data-testid="maintenance-title" />
            )}
          </Field>
          <Field label={t("maintenance.form.description")} optionalLabel={t("common.optional")} hint={t("maintenance.form.descriptionHint")} error={error("description")}>
            {(fieldId) => (
              <textarea id={fieldId} rows={3} value={draft.description} onChange={(e) => update({ description: e.target.value })} className={TEXTAREA} data-testid="maintenance-description" />
            )}
          </Field>
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">{t("maintenance.form.covers")}</legend>
            <div className="mt-2 flex flex-wrap gap-4">
              {(["targets", "all"] as const).map((scope) => (
                <label key={scope} className="flex cursor-pointer items-center gap-2 text-sm text-slate-700">
                  <input type="radio" name="scope" checked={draft.scope === scope} onChange={() => update({ scope })} data-testid={`maintenance-scope-${scope}`} className="size-4 accent-indigo-600" />
                  {t(`maintenance.form.scope.${scope}`)}
                </label>
              ))}
            </div>
            {shown.targets && (
              <p className="mt-1 text-xs font-medium text-red-600" data-testid="maintenance-error-targets">
                {error("targets")}
              </p>
            )}
          </fieldset>
        </div>
      </Card>

      {draft.scope === "targets" && (
        <>
          <TargetPicker
            prefix="maintenance-monitors"
            title={t("maintenance.form.monitorsTitle")}
            hint={t("maintenance.form.monitorsHint")}
            selectedTitle={t("maintenance.form.chosen", { count: draft.monitorIds.length })}
            noneText={t("maintenance.form.noneChosen")}
            searchLabel={t("statusConfig.searchMonitors")}
            emptyText={t("statusConfig.noMonitors")}
            items={loaded.monitors}
            selected={draft.monitorIds}
            onChange={(monitorIds) => update({ monitorIds })}
            error={undefined}
          />
          <TargetPicker
            prefix="maintenance-agents"
            title={t("maintenance.form.agentsTitle")}
            hint={t("maintenance.form.agentsHint")}
            selectedTitle={t("maintenance.form.chosen", { count: draft.agentIds.length })}
            noneText={t("maintenance.form.noneChosen")}
            searchLabel={t("statusConfig.searchAgents")}
            emptyText={t("statusConfig.noAgents")}
            items={loaded.agents}
            selected={draft.agentIds}
            onChange={(agentIds) => update({ agentIds })}
            error={undefined}
          />
        </>
      )}

      <Card>
        <CardHeader title={t("maintenance.form.schedule")} description={t(isRecurring(draft.kind) ? "maintenance.form.recurringHint" : "maintenance.form.oneOffHint")} />
        <div className="grid gap-6 px-5 py-5 sm:px-6 lg:grid-cols-2">
          <ScheduleFields draft={draft} errors={shown} onChange={update} />
          <SchedulePreview schedule={scheduleOf(draft)} ready={scheduleReady} />
        </div>
      </Card>

      <div className="flex flex-wrap items-center justify-end gap-3">
        <FormMessage kind="error">{failure}</FormMessage>
        {tried && Object.keys(errors).length > 0 && (
          <p role="alert" className="text-sm text-red-600" data-testid="maintenance-fix-errors">
            {t("maintenance.fixErrors")}
          </p>
        )}
        <ButtonLink href="/maintenance" variant="secondary">
          {t("common.cancel")}
        </ButtonLink>
        <Button type="submit" busy={saving} data-testid="maintenance-save">
          {t(id ? "common.save" : "maintenance.create")}
        </Button>
      </div>
    </form>
  );
}
