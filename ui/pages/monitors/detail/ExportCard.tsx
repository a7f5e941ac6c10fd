// The monitor's raw checks over chosen days as a file (GET /api/monitors/:id/export): CSV for a spreadsheet, NDJSON
// for scripts. Days are the browser's calendar days: from the first one's midnight to the end of the last.
//
// data-testid: `monitor-export`, `monitor-export-from`, `monitor-export-to`, `monitor-export-format`,
// `monitor-export-download`, `monitor-export-range-error`.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../../api/errors";
import { exportChecks, type PublicMonitor } from "../../../api/monitors";
import { Button } from "../../../components/Button";
import { Card } from "../../../components/Card";
import { Field, SelectInput, TextInput } from "../../../components/form";
import { saveFile } from "../../../components/saveFile";
import { SectionTitle } from "./layout";

const DAY = 86_400_000;
/** yyyy-mm-dd of a local date. */
const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
/** The local midnight starting a yyyy-mm-dd day, or `days` later (days of 23 or 25 hours included). */
const midnight = (day: string, days = 0) => {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y!, m! - 1, d! + days).getTime();
};

export function ExportCard({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  const today = isoDay(new Date());
  const [from, setFrom] = useState(isoDay(new Date(Date.now() - 6 * DAY)));
  const [to, setTo] = useState(today);
  const [format, setFormat] = useState<"csv" | "ndjson">("csv");
  const [busy, setBusy] = useState(false);
  const badRange = !from || !to || from > to;

  const download = async () => {
    setBusy(true);
    try {
      const { blob, fileName } = await exportChecks(monitor.id, format, midnight(from), midnight(to, 1));
      saveFile(blob, fileName);
      toast.success(t("monitors.detail.export.downloaded"));
    } catch (err) {
      toast.error(errorMessage(err, t("monitors.detail.export.failed")));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="monitor-export">
      <SectionTitle>{t("monitors.detail.export.title")}</SectionTitle>
      <div className="space-y-4 px-5 py-5 sm:px-6">
        <p className="text-sm text-slate-600">{t("monitors.detail.export.intro")}</p>
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label={t("monitors.detail.export.from")} error={badRange ? t("monitors.detail.export.badRange") : undefined} errorTestId="monitor-export-range-error">
            {(id) => <TextInput id={id} type="date" value={from} max={today} onChange={(e) => setFrom(e.target.value)} data-testid="monitor-export-from" />}
          </Field>
          <Field label={t("monitors.detail.export.to")}>
            {(id) => <TextInput id={id} type="date" value={to} max={today} onChange={(e) => setTo(e.target.value)} data-testid="monitor-export-to" />}
          </Field>
          <Field label={t("monitors.detail.export.format")}>
            {(id) => (
              <SelectInput id={id} value={format} onChange={(e) => setFormat(e.target.value as "csv" | "ndjson")} data-testid="monitor-export-format">
                <option value="csv">{t("monitors.detail.export.csv")}</option>
                <option value="ndjson">{t("monitors.detail.export.ndjson")}</option>
              </SelectInput>
            )}
          </Field>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-xs text-slate-500">{t("monitors.detail.export.retention")}</p>
          <Button variant="secondary" busy={busy} disabled={badRange} onClick={() => void download()} data-testid="monitor-export-download">
            {t("monitors.detail.export.download")}
          </Button>
        </div>
      </div>
    </Card>
  );
}
