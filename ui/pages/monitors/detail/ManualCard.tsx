// A manual monitor's state, set here: up, or down with an optional note (shown as its error and in alerts). Editors
// and admins only; the same call scripts make (POST /api/monitors/:id/manual).
//
// data-testids: `monitor-manual`, `monitor-manual-note`, `monitor-manual-up`, `monitor-manual-down`.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../../api/errors";
import { getMonitor, setManualState, type PublicMonitor } from "../../../api/monitors";
import { Button } from "../../../components/Button";
import { Card } from "../../../components/Card";
import { Field, TextInput } from "../../../components/form";
import { EditorOnly } from "../../../components/guards";
import { SectionTitle } from "./layout";

export function ManualCard({ monitor, onChange }: { monitor: PublicMonitor; onChange: (m: PublicMonitor) => void }) {
  const { t } = useTranslation();
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState<"up" | "down" | null>(null);
  const set = async (status: "up" | "down") => {
    setBusy(status);
    try {
      await setManualState(monitor.id, status, status === "down" && note.trim() ? note.trim() : null);
      onChange((await getMonitor(monitor.id)).monitor);
      toast.success(t(status === "up" ? "monitors.detail.manual.setUp" : "monitors.detail.manual.setDown"));
      setNote("");
    } catch (err) {
      toast.error(errorMessage(err, t("monitors.detail.manual.failed")));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card>
      <div className="space-y-4" data-testid="monitor-manual">
        <SectionTitle>{t("monitors.detail.manual.title")}</SectionTitle>
        <p className="text-sm text-slate-600">{t("monitors.detail.manual.intro")}</p>
        <EditorOnly>
          <div className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end">
            <Field label={t("monitors.detail.manual.note")} optionalLabel={t("common.optional")}>
              {(id) => <TextInput id={id} maxLength={200} value={note} onChange={(e) => setNote(e.target.value)} data-testid="monitor-manual-note" />}
            </Field>
            <Button busy={busy === "up"} disabled={!monitor.active} onClick={() => void set("up")} data-testid="monitor-manual-up">
              {t("monitors.detail.manual.up")}
            </Button>
            <Button variant="danger" busy={busy === "down"} disabled={!monitor.active} onClick={() => void set("down")} data-testid="monitor-manual-down">
              {t("monitors.detail.manual.down")}
            </Button>
          </div>
        </EditorOnly>
      </div>
    </Card>
  );
}
