// /incidents/:id: post an update (its state becomes the incident's), the timeline (newest first, each update may be
// deleted while another remains), the incident's details, and delete.
//
// data-testids: `incident-heading`, `incident-state-badge`, `incident-update-form`, `incident-update-state`,
//   `incident-update-message`, `incident-update-post`, `incident-timeline`, `incident-timeline-item`,
//   `incident-timeline-delete`, `incident-details-save`, `incident-delete`.
import { useCallback, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation, useParams } from "wouter";
import { errorMessage } from "../../api/errors";
import {
  deleteIncident,
  deleteIncidentUpdate,
  getIncident,
  postIncidentUpdate,
  updateIncident,
  type IncidentState,
  type PublicIncident,
} from "../../api/incidents";
import { Button, ButtonLink } from "../../components/Button";
import { Card, CardHeader, PageHeader } from "../../components/Card";
import { LinkedText } from "../../components/LinkedText";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";
import { useZonedFormat } from "../maintenance/parts";
import { fetchChoices, IncidentFields, UpdateFields, type Choices, type IncidentDraft } from "./IncidentFields";
import { ImpactBadge, StateBadge } from "./parts";
import { EditorOnly } from "../../components/guards";
import { canEdit } from "../../state/session";

export default function IncidentDetail() {
  const { t } = useTranslation();
  const id = Number(useParams<{ id: string }>().id);
  const fetch = useCallback(async () => {
    const [{ incident }, choices] = await Promise.all([getIncident(id), fetchChoices()]);
    return { incident, choices };
  }, [id]);
  const { state, reload, update } = useLoad(fetch, t("incidents.fetchFailed"));
  useDocumentTitle(state.phase === "loaded" ? state.data.incident.title : t("incidents.title"));
  if (state.phase === "loading") return <LoadingMessage data-testid="incident-loading">{t("incidents.loading")}</LoadingMessage>;
  if (state.phase === "error") return <LoadError message={state.message} onRetry={() => void reload()} data-testid="incident-error" />;
  const set = (incident: PublicIncident) => update((d) => ({ ...d, incident }));
  return <Detail incident={state.data.incident} choices={state.data.choices} onChange={set} />;
}

function Detail({ incident, choices, onChange }: { incident: PublicIncident; choices: Choices; onChange: (i: PublicIncident) => void }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const format = useZonedFormat();
  const [updateState, setUpdateState] = useState<IncidentState>(incident.state === "resolved" ? "resolved" : incident.state);
  const [message, setMessage] = useState("");
  const [posting, setPosting] = useState(false);
  const [draft, setDraft] = useState<IncidentDraft>({ title: incident.title, impact: incident.impact, monitorIds: incident.monitorIds, agentIds: incident.agentIds, pageIds: incident.pageIds });
  const [saving, setSaving] = useState(false);
  const { ask, dialog } = useDeleteConfirmation<PublicIncident>({
    section: "incidents",
    message: (x) => t("incidents.confirmDelete.message", { title: x.title }),
    remove: deleteIncident,
    onDeleted: () => navigate("/incidents"),
  });

  const run = async (work: () => Promise<{ incident: PublicIncident }>, done: string, busy: (b: boolean) => void) => {
    busy(true);
    try {
      onChange((await work()).incident);
      toast.success(done);
      return true;
    } catch (err) {
      toast.error(errorMessage(err, t("incidents.saveFailed")));
      return false;
    } finally {
      busy(false);
    }
  };
  const post = async (e: FormEvent) => {
    e.preventDefault();
    if (!message.trim()) return void toast.error(t("incidents.errors.messageRequired"));
    if (await run(() => postIncidentUpdate(incident.id, { state: updateState, message }), t("incidents.posted"), setPosting)) setMessage("");
  };
  const removeUpdate = (updateId: number) => run(() => deleteIncidentUpdate(incident.id, updateId), t("incidents.updateDeleted"), () => {});
  const saveDetails = (e: FormEvent) => {
    e.preventDefault();
    void run(() => updateIncident(incident.id, draft), t("incidents.saved"), setSaving);
  };

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-2" data-testid="incident-heading">
            {incident.title}
            <ImpactBadge impact={incident.impact} />
            <StateBadge state={incident.state} data-testid="incident-state-badge" />
          </span>
        }
        actions={
          <>
            <ButtonLink href="/incidents" variant="secondary">
              {t("incidents.backToList")}
            </ButtonLink>
            <EditorOnly>
              <Button variant="dangerGhost" onClick={() => ask(incident)} data-testid="incident-delete">
                {t("common.delete")}
              </Button>
            </EditorOnly>
          </>
        }
      />

      <EditorOnly>
      <Card>
        <CardHeader title={t("incidents.postUpdate")} description={t("incidents.postUpdateHint")} />
        <form onSubmit={(e) => void post(e)} className="space-y-4 px-5 py-5 sm:px-6" data-testid="incident-update-form">
          <UpdateFields state={updateState} message={message} onState={setUpdateState} onMessage={setMessage} rows={3} testId="incident-update" />
          <div className="flex justify-end">
            <Button type="submit" busy={posting} data-testid="incident-update-post">
              {t("incidents.post")}
            </Button>
          </div>
        </form>
      </Card>
      </EditorOnly>

      <Card>
        <CardHeader title={t("incidents.timeline")} />
        <ol className="divide-y divide-slate-100" data-testid="incident-timeline">
          {[...incident.updates].reverse().map((u) => (
            <li key={u.id} className="flex items-start justify-between gap-3 px-5 py-4 sm:px-6" data-testid="incident-timeline-item">
              <div className="min-w-0 space-y-1">
                <p className="flex flex-wrap items-center gap-2 text-sm">
                  <StateBadge state={u.state} />
                  <span className="text-xs text-slate-500">
                    {format.full(u.at)}
                    {u.createdBy ? ` · ${u.createdBy}` : ""}
                  </span>
                </p>
                <LinkedText text={u.message} className="block text-sm text-slate-700" />
              </div>
              {incident.updates.length > 1 && canEdit.value && (
                <Button size="sm" variant="dangerGhost" onClick={() => void removeUpdate(u.id)} data-testid="incident-timeline-delete" aria-label={t("incidents.deleteUpdate")}>
                  ✕
                </Button>
              )}
            </li>
          ))}
        </ol>
      </Card>

      <form onSubmit={saveDetails} className="space-y-6">
        <IncidentFields draft={draft} onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))} choices={choices} />
        <EditorOnly>
          <div className="flex justify-end">
            <Button type="submit" busy={saving} disabled={!draft.title.trim()} data-testid="incident-details-save">
              {t("incidents.saveDetails")}
            </Button>
          </div>
        </EditorOnly>
      </form>
      {dialog}
    </div>
  );
}
