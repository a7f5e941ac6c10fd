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
import { createIncident, type IncidentState } from "../../api/incidents";
import { Button, ButtonLink } from "../../components/Button";
import { Card, CardHeader, PageHeader } from "../../components/Card";
import { FormMessage } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";
import { fetchChoices, IncidentFields, UpdateFields, type Choices, type IncidentDraft } from "./IncidentFields";

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
          <UpdateFields state={updateState} message={message} onState={setUpdateState} onMessage={setMessage} rows={4} testId="incident" messageError={messageError} />
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
