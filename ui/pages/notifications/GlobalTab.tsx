// The global settings tab: the monitor part and the agent part that apply to every monitor and agent without settings
// of their own. One form, one save (the API takes both parts at once).
//
// data-testids: `global-loading`, `global-error`, `global-form`, `global-save`, `global-fix-errors`; the parts' controls
//   are prefixed `global-monitor` and `global-agent` (see parts.tsx).
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { NotificationSettings, PublicChannel } from "../../api/notifications";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { agentDraft, agentSettings, knownChannelIds, monitorDraft, monitorSettings, validateAgentDraft, validateMonitorDraft, type PartErrors } from "./model";
import { AgentPartForm, MonitorPartForm } from "./parts";
import { useChannels } from "./useChannels";
import { useSettings } from "./useSettings";
import { EditorOnly } from "../../components/guards";

export function GlobalTab() {
  const { t } = useTranslation();
  const settings = useSettings();
  const channels = useChannels();
  const failed = settings.state.phase === "error" ? settings.state : channels.state.phase === "error" ? channels.state : null;
  const retry = () => {
    if (settings.state.phase === "error") void settings.reload();
    if (channels.state.phase === "error") void channels.reload();
  };
  return (
    <div>
      <p className="mb-4 text-sm text-slate-600">{t("notifications.global.description")}</p>
      {failed ? (
        <Card>
          <LoadError data-testid="global-error" message={failed.message} onRetry={retry} />
        </Card>
      ) : settings.state.phase === "loading" || channels.state.phase === "loading" ? (
        <Card>
          <LoadingMessage data-testid="global-loading">{t("notifications.settings.loading")}</LoadingMessage>
        </Card>
      ) : (
        settings.state.phase === "loaded" &&
        channels.state.phase === "loaded" && (
          <GlobalForm key={JSON.stringify(settings.state.data)} settings={settings.state.data} channels={channels.state.data} saving={settings.saving} onSave={settings.save} />
        )
      )}
    </div>
  );
}

function GlobalForm({ settings, channels, saving, onSave }: { settings: NotificationSettings; channels: PublicChannel[]; saving: boolean; onSave: (change: Partial<NotificationSettings>) => Promise<boolean> }) {
  const { t } = useTranslation();
  const [monitor, setMonitor] = useState(() => monitorDraft(settings.monitor));
  const [agent, setAgent] = useState(() => agentDraft(settings.agent));
  const [errors, setErrors] = useState<{ monitor: PartErrors; agent: PartErrors } | null>(null);
  const existing = new Set(channels.map((c) => c.id));

  const check = (m = monitor, a = agent) => ({ monitor: validateMonitorDraft(m), agent: validateAgentDraft(a) });
  const hasErrors = (e: { monitor: PartErrors; agent: PartErrors }) => Object.keys(e.monitor).length + Object.keys(e.agent).length > 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = check();
    setErrors(found);
    if (hasErrors(found)) return;
    const m = monitorSettings(monitor);
    const a = agentSettings(agent);
    await onSave({ monitor: { ...m, channelIds: knownChannelIds(m.channelIds, existing) }, agent: { ...a, channelIds: knownChannelIds(a.channelIds, existing) } });
  };

  return (
    <form onSubmit={submit} noValidate data-testid="global-form" className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title={t("notifications.parts.monitorTitle")} description={t("notifications.parts.monitorHint")} />
          <div className="px-5 py-5 sm:px-6">
            <MonitorPartForm
              value={monitor}
              onChange={(m) => {
                setMonitor(m);
                if (errors) setErrors(check(m, agent));
              }}
              channels={channels}
              errors={errors?.monitor ?? {}}
              prefix="global-monitor"
            />
          </div>
        </Card>
        <Card>
          <CardHeader title={t("notifications.parts.agentTitle")} description={t("notifications.parts.agentHint")} />
          <div className="px-5 py-5 sm:px-6">
            <AgentPartForm
              value={agent}
              onChange={(a) => {
                setAgent(a);
                if (errors) setErrors(check(monitor, a));
              }}
              channels={channels}
              errors={errors?.agent ?? {}}
              prefix="global-agent"
            />
          </div>
        </Card>
      </div>
      <div className="flex flex-wrap items-center justify-end gap-3">
        {errors && hasErrors(errors) && (
          <p role="alert" data-testid="global-fix-errors" className="text-sm text-red-600">
            {t("notifications.parts.fixErrors")}
          </p>
        )}
        <EditorOnly>
          <Button type="submit" busy={saving} data-testid="global-save">
            {saving ? t("common.saving") : t("common.save")}
          </Button>
        </EditorOnly>
      </div>
    </form>
  );
}
