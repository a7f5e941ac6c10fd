// /import/kuma (admins): bring an Uptime Kuma setup across — choose its kuma.db (or a Kuma 1.x JSON backup), see the
// plan (what will be created, updated, and what cannot come across and why), then import it in one go. The same as
// `vigil import kuma <path>`; importing again updates what was imported before.
//
// data-testids: `import-file`, `import-history`, `import-plan-button`, `import-plan`, `import-item`, `import-apply`,
// `import-done`.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { applyKumaImport, planKumaImport, type ImportPlan, type PlanItem } from "../../api/import";
import { Button, ButtonLink } from "../../components/Button";
import { Card, CardHeader, PageHeader } from "../../components/Card";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { itemName, noteText, sourceLabel } from "./planText";

const ACTIONS = ["create", "update", "skip"] as const;
const ACTION_STYLE: Record<PlanItem["action"], string> = {
  create: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  update: "bg-sky-50 text-sky-700 ring-sky-600/20",
  skip: "bg-amber-50 text-amber-800 ring-amber-600/20",
};

type Phase = { step: "choose" } | { step: "planned"; plan: ImportPlan } | { step: "done"; plan: ImportPlan };

export default function ImportKuma() {
  const { t } = useTranslation();
  useDocumentTitle(t("import.title"));
  const [file, setFile] = useState<File | null>(null);
  const [history, setHistory] = useState(false);
  const [busy, setBusy] = useState(false);
  const [phase, setPhase] = useState<Phase>({ step: "choose" });
  const [error, setError] = useState<string | null>(null);

  const run = async (apply: boolean) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const reply = apply ? await applyKumaImport(file, history) : await planKumaImport(file, history);
      setPhase({ step: apply ? "done" : "planned", plan: reply.data });
      if (apply) toast.success(t("import.applied"));
    } catch (err) {
      setError(errorMessage(err, t(apply ? "import.applyFailed" : "import.planFailed")));
    } finally {
      setBusy(false);
    }
  };

  const choose = (f: File | null) => {
    setFile(f);
    setPhase({ step: "choose" });
    setError(null);
  };

  return (
    <div>
      <PageHeader title={t("import.title")} description={t("import.subtitle")} />
      <Card className="mb-6">
        <CardHeader title={t("import.chooseTitle")} description={t("import.chooseHint")} />
        <div className="space-y-4 px-5 py-4 sm:px-6">
          <input
            type="file"
            accept=".db,.sqlite,.json,application/json,application/octet-stream"
            onChange={(e) => choose(e.target.files?.[0] ?? null)}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-200"
            data-testid="import-file"
          />
          <label className="flex items-start gap-2 text-sm text-slate-700">
            <input type="checkbox" className="mt-0.5" checked={history} onChange={(e) => setHistory(e.target.checked)} data-testid="import-history" />
            <span>
              {t("import.history")}
              <span className="block text-xs text-slate-500">{t("import.historyHint")}</span>
            </span>
          </label>
          {error && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="import-error">
              {error}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" disabled={!file} busy={busy && phase.step === "choose"} onClick={() => void run(false)} data-testid="import-plan-button">
              {t("import.showPlan")}
            </Button>
          </div>
          <p className="text-xs text-slate-500">{t("import.cliHint")}</p>
        </div>
      </Card>
      {phase.step !== "choose" && <PlanCard plan={phase.plan} done={phase.step === "done"} busy={busy} onApply={() => void run(true)} />}
    </div>
  );
}

function PlanCard({ plan, done, busy, onApply }: { plan: ImportPlan; done: boolean; busy: boolean; onApply: () => void }) {
  const { t, i18n } = useTranslation();
  const count = (action: PlanItem["action"]) => plan.items.filter((i) => i.action === action).length;
  const changes = count("create") + count("update");
  return (
    <Card data-testid={done ? "import-done" : "import-plan"}>
      <CardHeader
        title={done ? t("import.doneTitle") : t("import.planTitle")}
        description={<span className="[overflow-wrap:anywhere]">{t("import.summary", { source: sourceLabel(i18n, plan.source), create: count("create"), update: count("update"), skip: count("skip") })}</span>}
      />
      {ACTIONS.map((action) => {
        const items = plan.items.filter((i) => i.action === action);
        if (items.length === 0) return null;
        return (
          <section key={action} className="border-b border-slate-100 px-5 py-4 last:border-b-0 sm:px-6">
            <h3 className="mb-2 text-sm font-semibold text-slate-900">{t(done ? `import.did.${action}` : `import.will.${action}`, { count: items.length })}</h3>
            <ul className="divide-y divide-slate-100">
              {items.map((item) => (
                <li key={`${item.kind}-${item.sourceId}`} className="py-2 text-sm" data-testid="import-item" data-action={item.action}>
                  <div className="flex flex-wrap items-center gap-2">
                    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${ACTION_STYLE[item.action]}`}>{t(`import.kinds.${kindKey(item.kind)}`)}</span>
                    <span className="break-all font-medium text-slate-800">{itemName(i18n, item)}</span>
                  </div>
                  {item.notes.length > 0 && (
                    <ul className="mt-1 list-disc pl-5 text-xs text-slate-500 [overflow-wrap:anywhere]">
                      {item.notes.map((note, i) => (
                        <li key={i} data-code={note.code}>
                          {noteText(i18n, note)}
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
      <div className="flex flex-wrap items-center justify-end gap-2 px-5 py-4 sm:px-6">
        {done ? (
          <ButtonLink href="/monitors" data-testid="import-to-monitors">
            {t("import.toMonitors")}
          </ButtonLink>
        ) : (
          <Button disabled={changes === 0} busy={busy} onClick={onApply} data-testid="import-apply">
            {t("import.apply", { count: changes })}
          </Button>
        )}
      </div>
    </Card>
  );
}

const KINDS = ["monitor", "tag", "notification", "status-page", "maintenance", "setting", "history"] as const;
/** The label key of a plan item's kind (an unknown one reads as "other"). */
function kindKey(kind: string): (typeof KINDS)[number] | "other" {
  return (KINDS as readonly string[]).includes(kind) ? (kind as (typeof KINDS)[number]) : "other";
}
