// /incidents/new (?monitorId=… from a monitor that is down: "create incident from this outage"): what it is, what it
// affects, and its first update.
//
// data-testids: `incident-form`, `incident-state`, `incident-message`, `incident-error-message`, `incident-save`, and
//   IncidentFields' own.
import { useCallback, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation, useSearch } from "wouter";
import { errorMessage } from "../../api/errors";
import { createIncident, INCIDENT_MESSAGE_MAX, INCIDENT_STATES, type IncidentState } from "../../api/incidents";
import { Button, ButtonLink } from "../../components/Button";
import { Card, CardHeader, PageHeader } from "../../components/Card";
import { Field, FormMessage, SelectInput } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";
import { fetchChoices, IncidentFields, type Choices, type IncidentDraft } from "./IncidentFields";

export const TEXTAREA =
  "block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 " +
  "placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-500 focus:outline-none";

export default function IncidentCreate() {
  const { t } = useTranslation();
  useDocumentTitle(t("incidents.createTitle"));
  const fetch = useCallback(fetchChoices, []);
  const { state, reload } = useLoad(fetch, t("incidents.fetchFailed"));
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title={t("incidents.createTitle")}
        actions={
          <ButtonLink href="/incidents" variant="secondary">
            {t("incidents.backToList")}
          </ButtonLink>
        }
      />
      {state.phase === "loading" && <LoadingMessage data-testid="incident-loading">{t("incidents.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError message={state.message} onRetry={() => void reload()} data-testid="incident-error" />}
      {state.phase === "loaded" && <CreateForm choices={state.data} />}
    </div>
  );
}

function CreateForm({ choices }: { choices: Choices }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const fromMonitor = Number(new URLSearchParams(useSearch()).get("monitorId"));
  const outage = choices.monitors.find((m) => m.id === fromMonitor);
  const [draft, setDraft] = useState<IncidentDraft>({
    title: outage ? t("incidents.fromOutageTitle", { name: outage.name }) : "",
    impact: "major",
    monitorIds: outage ? [outage.id] : [],
    agentIds: [],
    pageIds: [],
  });
  const [updateState, setUpdateState] = useState<IncidentState>("investigating");
  const [message, setMessage] = useState("");
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState("");
  const titleError = tried && !draft.title.trim() ? t("incidents.errors.titleRequired") : undefined;
  const messageError = tried && !message.trim() ? t("incidents.errors.messageRequired") : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    setFailure("");
    if (!draft.title.trim() || !message.trim()) return;
    setSaving(true);
    try {
      const { incident } = await createIncident({ ...draft, update: { state: updateState, message } });
      toast.success(t("incidents.created"));
      navigate(`/incidents/${incident.id}`);
    } catch (err) {
      setFailure(errorMessage(err, t("incidents.saveFailed")));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-6" data-testid="incident-form">
      <IncidentFields draft={draft} onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))} choices={choices} titleError={titleError} />
      <Card>
        <CardHeader title={t("incidents.form.firstUpdate")} />
        <div className="space-y-5 px-5 py-5 sm:px-6">
          <Field label={t("incidents.form.state")}>
            {(id) => (
              <SelectInput id={id} value={updateState} onChange={(e) => setUpdateState(e.target.value as IncidentState)} data-testid="incident-state">
                {INCIDENT_STATES.map((s) => (
                  <option key={s} value={s}>
                    {t(`incidents.states.${s}`)}
                  </option>
                ))}
              </SelectInput>
            )}
          </Field>
          <Field label={t("incidents.form.message")} hint={t("incidents.form.messageHint")} error={messageError} errorTestId="incident-error-message">
            {(id) => <textarea id={id} rows={4} maxLength={INCIDENT_MESSAGE_MAX} value={message} onChange={(e) => setMessage(e.target.value)} className={TEXTAREA} data-testid="incident-message" />}
          </Field>
        </div>
      </Card>
      <div className="flex flex-wrap items-center justify-end gap-3">
        <FormMessage kind="error">{failure}</FormMessage>
        <ButtonLink href="/incidents" variant="secondary">
          {t("common.cancel")}
        </ButtonLink>
        <Button type="submit" busy={saving} data-testid="incident-save">
          {t("incidents.create")}
        </Button>
      </div>
    </form>
  );
}
