// Admin: download a backup of the database (GET /api/backup) — for installs without the `vigil` executable too.
//
// data-testid: `backup-download`.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { downloadBackup } from "../../api/backup";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { saveFile } from "../../components/saveFile";

export function BackupCard() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const { blob, fileName } = await downloadBackup();
      saveFile(blob, fileName);
      toast.success(t("backup.downloaded"));
    } catch (err) {
      toast.error(errorMessage(err, t("backup.failed")));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="mb-6" data-testid="backup">
      <CardHeader title={t("backup.title")} description={t("backup.description")} />
      <div className="flex flex-wrap items-center justify-between gap-3 px-5 py-4 sm:px-6">
        <p className="text-sm text-slate-600">{t("backup.restoreHint")}</p>
        <Button variant="secondary" busy={busy} onClick={() => void download()} data-testid="backup-download">
          {t("backup.download")}
        </Button>
      </div>
    </Card>
  );
}
