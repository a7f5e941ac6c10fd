import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Time } from "../../components/time";
import { toast } from "sonner";
import { useLocation, useParams } from "wouter";
import { AGENT_NAME_MAX, getAgent, updateAgent, type PublicAgent } from "../../api/agents";
import { errorMessage } from "../../api/errors";
import { Button, ButtonLink } from "../../components/Button";
import { BellIcon } from "../../components/icons";
import { Card, CardHeader, PageHeader } from "../../components/Card";
import { Field, FormMessage, TextInput } from "../../components/form";
import { PageLoading } from "../../components/PageLoading";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { checkAgentName } from "./model";
import { Fact } from "../../components/DetailParts";
import { AgentStatusBadge, agentDisplayStatus } from "./parts";

function EditForm({ agent }: { agent: PublicAgent }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [name, setName] = useState(agent.name);
  const [location, setLocation] = useState(agent.location ?? "");
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = checkAgentName(name);
    if (problem) return setError(t(problem, { max: AGENT_NAME_MAX }));
    setError("");
    setSaving(true);
    try {
      await updateAgent(agent.id, { name: name.trim(), location: location.trim() || null });
      toast.success(t("agents.updated"));
      navigate(`/agents/${agent.id}`);
    } catch (err) {
      const message = errorMessage(err, t("agents.updateFailed"));
      setError(message);
      toast.error(message);
      setSaving(false);
    }
  };

  return (
    <Card>
      <CardHeader title={t("agents.form.nameTitle")} description={t("agents.form.nameHint")} />
      <form onSubmit={submit} noValidate className="space-y-5 p-5 sm:p-6" data-testid="agent-edit-form">
        <Field label={t("agents.fields.name")} hint={t("agents.form.nameLength", { max: AGENT_NAME_MAX })}>
          {(id) => (
            <TextInput
              id={id}
              name="name"
              autoComplete="off"
              required
              maxLength={AGENT_NAME_MAX}
              value={name}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={error ? true : undefined}
            />
          )}
        </Field>
        <Field label={t("agents.form.location")} hint={t("agents.form.locationHint")}>
          {(id) => (
            <TextInput
              id={id}
              name="location"
              autoComplete="off"
              maxLength={60}
              placeholder={name.trim() || agent.name}
              value={location}
              onChange={(e) => setLocation(e.target.value)}
            />
          )}
        </Field>
        {error && <FormMessage kind="error">{error}</FormMessage>}
        <div className="flex justify-end gap-3">
          <ButtonLink href={`/agents/${agent.id}`} variant="secondary" data-testid="agent-edit-cancel">
            {t("common.cancel")}
          </ButtonLink>
          <Button type="submit" busy={saving} data-testid="agent-edit-submit">
            {saving ? t("common.saving") : t("common.save")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

export default function AgentEdit() {
  const { t } = useTranslation();
  useDocumentTitle(t("agents.editTitle"));
  const { id } = useParams<{ id: string }>();
  const [agent, setAgent] = useState<PublicAgent | null>(null);
  const [error, setError] = useState("");

  useEffect(() => {
    let live = true;
    setAgent(null);
    setError("");
    getAgent(Number(id))
      .then((reply) => live && setAgent(reply.agent))
      .catch((err) => live && setError(errorMessage(err, t("agents.fetchAgentFailed"))));
    return () => {
      live = false;
    };
  }, [id, t]);

  const dash = t("common.dash");
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader
        title={agent ? `${t("agents.editTitle")}: ${agent.name}` : t("agents.editTitle")}
        actions={
          <>
            {agent && (
              <ButtonLink href={`/notifications?tab=agents&agent=${agent.id}`} variant="ghost" title={t("notifications.linkTitle")} data-testid="notifications-link">
                <BellIcon className="size-4" />
                {t("notifications.link")}
              </ButtonLink>
            )}
            <ButtonLink href={agent ? `/agents/${agent.id}` : "/agents"} variant="secondary" data-testid="agent-back">
              {agent ? t("agents.backToDetail") : t("agents.backToList")}
            </ButtonLink>
          </>
        }
      />
      {error && (
        <p role="alert" data-testid="agent-load-error" className="text-sm text-red-600">
          {error}
        </p>
      )}
      {!error && !agent && <PageLoading />}
      {agent && <EditForm key={agent.id} agent={agent} />}
      {agent && (
        <Card data-testid="agent-facts">
          <CardHeader title={t("agents.form.factsTitle")} description={t("agents.form.factsHint")} />
          <dl className="grid grid-cols-2 gap-x-6 gap-y-4 p-5 sm:grid-cols-3 sm:p-6">
            <Fact label={t("agents.fields.status")}>
              <AgentStatusBadge status={agentDisplayStatus(agent)} data-testid={`agent-status-${agent.id}`} />
            </Fact>
            <Fact label={t("agents.fields.hostname")}>{agent.hostname || dash}</Fact>
            <Fact label={t("agents.fields.ips")}>{agent.ips.length ? agent.ips.join(", ") : dash}</Fact>
            <Fact label={t("agents.fields.os")}>{[agent.os, agent.arch].filter(Boolean).join(" · ") || dash}</Fact>
            <Fact label={t("agents.fields.agentVersion")}>{agent.agentVersion || dash}</Fact>
            <Fact label={t("agents.fields.createdAt")}><Time at={agent.createdAt} /></Fact>
          </dl>
        </Card>
      )}
    </div>
  );
}
