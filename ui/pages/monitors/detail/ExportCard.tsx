// The monitor's raw checks over chosen days as a file (GET /api/monitors/:id/export).
//
// data-testid: `monitor-export`, and ExportForm's under it with the prefix `monitor-export`.
import { useTranslation } from "react-i18next";
import { exportChecks, type PublicMonitor } from "../../../api/monitors";
import { Card } from "../../../components/Card";
import { ExportForm } from "../../../components/ExportForm";
import { SectionTitle } from "./layout";

export function ExportCard({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  return (
    <Card data-testid="monitor-export">
      <SectionTitle>{t("monitors.detail.export.title")}</SectionTitle>
      <ExportForm
        testId="monitor-export"
        fetchFile={(format, from, to) => exportChecks(monitor.id, format, from, to)}
        days={7}
        intro={t("monitors.detail.export.intro")}
        retention={t("monitors.detail.export.retention")}
        downloaded={t("monitors.detail.export.downloaded")}
        failed={t("monitors.detail.export.failed")}
      />
    </Card>
  );
}
