// Raw rows over chosen days as a file: CSV for a spreadsheet, NDJSON for scripts. Days are the browser's calendar days:
// from the first one's midnight to the end of the last. The monitor's Export checks and the agent's Export samples
// cards hold one each; what differs (the request, the words about what is exported) comes in as props.
//
// data-testid: `<testId>-from`, `<testId>-to`, `<testId>-format`, `<testId>-download`, `<testId>-range-error`.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import type { ExportFormat } from "../api/client";
import { errorMessage } from "../api/errors";
import { Button } from "./Button";
import { Field, SelectInput, TextInput } from "./form";
import { saveFile } from "./saveFile";

const DAY = 86_400_000;
/** yyyy-mm-dd of a local date. */
const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
/** The local midnight starting a yyyy-mm-dd day, or `days` later (days of 23 or 25 hours included). */
const midnight = (day: string, days = 0) => {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y!, m! - 1, d! + days).getTime();
};

export interface ExportFormProps {
  testId: string;
  /** Fetches the file for [from, to) in Unix ms. */
  fetchFile: (format: ExportFormat, from: number, to: number) => Promise<{ blob: Blob; fileName: string }>;
  /** The days offered first: the last `days`, today included. */
  days: number;
  intro: string;
  retention: string;
  downloaded: string;
  failed: string;
}

export function ExportForm({ testId, fetchFile, days, intro, retention, downloaded, failed }: ExportFormProps) {
  const { t } = useTranslation();
  const today = isoDay(new Date());
  const [from, setFrom] = useState(isoDay(new Date(Date.now() - (days - 1) * DAY)));
  const [to, setTo] = useState(today);
  const [format, setFormat] = useState<ExportFormat>("csv");
  const [busy, setBusy] = useState(false);
  const badRange = !from || !to || from > to;

  const download = async () => {
    setBusy(true);
    try {
      const { blob, fileName } = await fetchFile(format, midnight(from), midnight(to, 1));
      saveFile(blob, fileName);
      toast.success(downloaded);
    } catch (err) {
      toast.error(errorMessage(err, failed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-4 px-5 py-5 sm:px-6">
      <p className="text-sm text-slate-600">{intro}</p>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label={t("common.export.from")} error={badRange ? t("common.export.badRange") : undefined} errorTestId={`${testId}-range-error`}>
          {(id) => <TextInput id={id} type="date" value={from} max={today} onChange={(e) => setFrom(e.target.value)} data-testid={`${testId}-from`} />}
        </Field>
        <Field label={t("common.export.to")}>
          {(id) => <TextInput id={id} type="date" value={to} max={today} onChange={(e) => setTo(e.target.value)} data-testid={`${testId}-to`} />}
        </Field>
        <Field label={t("common.export.format")}>
          {(id) => (
            <SelectInput id={id} value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)} data-testid={`${testId}-format`}>
              <option value="csv">{t("common.export.csv")}</option>
              <option value="ndjson">{t("common.export.ndjson")}</option>
            </SelectInput>
          )}
        </Field>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-xs text-slate-500">{retention}</p>
        <Button variant="secondary" busy={busy} disabled={badRange} onClick={() => void download()} data-testid={`${testId}-download`}>
          {t("common.export.download")}
        </Button>
      </div>
    </div>
  );
}
