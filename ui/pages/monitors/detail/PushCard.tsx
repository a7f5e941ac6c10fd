import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../../api/errors";
import { regeneratePushToken, type PublicMonitor } from "../../../api/monitors";
import { Button } from "../../../components/Button";
import { Card } from "../../../components/Card";
import { CodeBlock, CopyButton } from "../../../components/CodeBlock";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { pushExamples, pushUrl } from "../model";
import { Ago } from "../parts";
import { SectionTitle } from "./layout";
import { intervalText } from "../intervals";

/** A push monitor's URL, curl lines for a cron job, the latest call, and replacing the URL (behind a confirmation). */
export function PushCard({ monitor, onChange }: { monitor: PublicMonitor; onChange: (m: PublicMonitor) => void }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!monitor.pushToken) return null;
  const url = pushUrl(window.location.origin, monitor.pushToken);
  const examples = pushExamples(url);
  const regenerate = async () => {
    setBusy(true);
    try {
      const reply = await regeneratePushToken(monitor.id);
      onChange(reply.monitor);
      toast.success(t("monitors.detail.push.regenerated"));
      setAsking(false);
    } catch (err) {
      toast.error(errorMessage(err, t("monitors.detail.push.regenerateFailed")));
    } finally {
      setBusy(false);
    }
  };
  const example = (key: "up" | "down" | "post") => (
    <div className="space-y-1.5">
      <p className="text-xs font-medium text-slate-600">{t(`monitors.detail.push.${key}`)}</p>
      <CodeBlock code={examples[key]} data-testid={`monitor-push-curl-${key}`} copyTestId={`monitor-push-curl-${key}-copy`} copiedMessage={t("monitors.detail.push.commandCopied")} />
    </div>
  );
  return (
    <Card data-testid="monitor-push">
      <SectionTitle
        actions={
          <Button variant="secondary" size="sm" onClick={() => setAsking(true)} data-testid="monitor-push-regenerate">
            {t("monitors.detail.push.regenerate")}
          </Button>
        }
      >
        {t("monitors.detail.push.title")}
      </SectionTitle>
      <div className="space-y-5 px-5 py-5 sm:px-6">
        <p className="text-sm text-slate-600">{t("monitors.detail.push.intro", { interval: intervalText(t, monitor.intervalSeconds), grace: monitor.pushGrace })}</p>
        <div className="space-y-1.5">
          <p className="text-xs font-medium uppercase tracking-wide text-slate-400">{t("monitors.detail.push.url")}</p>
          <div className="flex items-center gap-3 rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-inset ring-slate-200">
            <code data-testid="monitor-push-url" className="min-w-0 flex-1 font-mono text-sm [overflow-wrap:anywhere] text-slate-800">
              {url}
            </code>
            <CopyButton text={url} copiedMessage={t("monitors.detail.push.urlCopied")} data-testid="monitor-push-url-copy" />
          </div>
          <p className="text-xs text-amber-700">{t("monitors.detail.push.secret")}</p>
        </div>
        <p className="text-sm text-slate-700">
          <span className="font-medium">{t("monitors.detail.push.lastPush")}:</span>{" "}
          <span data-testid="monitor-push-last">
            <Ago at={monitor.lastPushAt} never={t("monitors.detail.push.never")} />
          </span>
        </p>
        <div className="space-y-3">
          <h3 className="text-sm font-semibold text-slate-900">{t("monitors.detail.push.examples")}</h3>
          {example("up")}
          {example("down")}
          {example("post")}
          <p className="text-xs text-slate-500">{t("monitors.detail.push.params")}</p>
        </div>
      </div>
      <ConfirmDialog
        open={asking}
        title={t("monitors.detail.push.regenerateTitle")}
        message={t("monitors.detail.push.regenerateMessage")}
        confirmLabel={t("monitors.detail.push.regenerateConfirm")}
        busy={busy}
        onConfirm={() => void regenerate()}
        onCancel={() => setAsking(false)}
      />
    </Card>
  );
}
