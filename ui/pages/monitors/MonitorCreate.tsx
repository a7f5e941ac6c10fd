import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation } from "wouter";
import { createMonitor } from "../../api/monitors";
import { ButtonLink } from "../../components/Button";
import { PageHeader } from "../../components/Card";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { emptyForm } from "./formModel";
import { MonitorForm } from "./MonitorForm";

export default function MonitorCreate() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  useDocumentTitle(t("monitors.createTitle"));
  const [initial] = useState(emptyForm);

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title={t("monitors.createTitle")}
        actions={
          <ButtonLink href="/monitors" variant="secondary" data-testid="monitor-back">
            {t("monitors.backToList")}
          </ButtonLink>
        }
      />
      <MonitorForm
        mode="create"
        initial={initial}
        cancelHref="/monitors"
        onSave={async (input) => (await createMonitor(input)).monitor}
        onSaved={(monitor) => {
          toast.success(t("monitors.created"));
          navigate(`/monitors/${monitor.id}`);
        }}
      />
    </div>
  );
}
