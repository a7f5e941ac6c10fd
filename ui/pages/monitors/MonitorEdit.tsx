import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation, useParams } from "wouter";
import { errorMessage } from "../../api/errors";
import { getMonitor, updateMonitor, type PublicMonitor } from "../../api/monitors";
import { ButtonLink } from "../../components/Button";
import { BellIcon } from "../../components/icons";
import { PageHeader } from "../../components/Card";
import { PageLoading } from "../../components/PageLoading";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { formFromMonitor } from "./formModel";
import { MonitorForm } from "./MonitorForm";
import { ManagedWarning } from "../../components/Managed";

export default function MonitorEdit() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const { id } = useParams<{ id: string }>();
  const [monitor, setMonitor] = useState<PublicMonitor | null>(null);
  const [error, setError] = useState("");
  useDocumentTitle(monitor ? `${t("monitors.editTitle")}: ${monitor.name}` : t("monitors.editTitle"));

  useEffect(() => {
    let live = true;
    setMonitor(null);
    setError("");
    getMonitor(Number(id))
      .then((reply) => live && setMonitor(reply.monitor))
      .catch((err) => live && setError(errorMessage(err, t("monitors.fetchFailed"))));
    return () => {
      live = false;
    };
  }, [id, t]);

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title={monitor ? `${t("monitors.editTitle")}: ${monitor.name}` : t("monitors.editTitle")}
        actions={
          <>
            {monitor && (
              <ButtonLink href={`/notifications?tab=monitors&monitor=${monitor.id}`} variant="ghost" title={t("notifications.linkTitle")} data-testid="notifications-link">
                <BellIcon className="size-4" />
                {t("notifications.link")}
              </ButtonLink>
            )}
            <ButtonLink href={monitor ? `/monitors/${monitor.id}` : "/monitors"} variant="secondary" data-testid="monitor-back">
              {monitor ? t("common.back") : t("monitors.backToList")}
            </ButtonLink>
          </>
        }
      />
      {error && (
        <p role="alert" data-testid="monitor-load-error" className="text-sm text-red-600">
          {error}
        </p>
      )}
      {!error && !monitor && <PageLoading />}
      {monitor && <ManagedWarning what="monitor" id={monitor.id} />}
      {monitor && (
        <MonitorForm
          key={monitor.id}
          mode="edit"
          monitorId={monitor.id}
          initial={formFromMonitor(monitor)}
          cancelHref={`/monitors/${monitor.id}`}
          onSave={async (input) => (await updateMonitor(monitor.id, input)).monitor}
          onSaved={(saved) => {
            toast.success(t("monitors.updated"));
            navigate(`/monitors/${saved.id}`);
          }}
        />
      )}
    </div>
  );
}
