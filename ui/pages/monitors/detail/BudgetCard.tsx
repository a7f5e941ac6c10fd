// The error budget of a monitor or group with an availability objective (GET /api/monitors/:id/budget): how much of
// the window's allowed failures is left, in percent and in time, how fast it burns over the last hour and six hours
// against the rates that alert, and its state. Read again every minute.
//
// data-testids: `monitor-budget`, `budget-state`, `budget-objective`, `budget-availability`, `budget-remaining`,
// `budget-burn-1h`, `budget-burn-6h`, `budget-error`.
import { useCallback, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { getBudget, type BudgetState, type PublicMonitor } from "../../../api/monitors";
import { Card } from "../../../components/Card";
import { Fact } from "../../../components/DetailParts";
import { formatDuration } from "../../../components/format";
import { LoadError } from "../../../components/LoadState";
import { useDurationUnits } from "../../../components/time";
import { useLoad } from "../../../components/useLoad";
import { SectionTitle } from "./layout";

const STATE_STYLE: Record<BudgetState, string> = {
  ok: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  "burning-slow": "bg-amber-50 text-amber-800 ring-amber-600/20",
  "burning-fast": "bg-red-50 text-red-700 ring-red-600/20",
  exhausted: "bg-red-100 text-red-800 ring-red-700/30",
};

export function BudgetCard({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  const units = useDurationUnits();
  const fetch = useCallback(async () => (await getBudget(monitor.id)).budget, [monitor.id, monitor.objective, monitor.objectiveDays]);
  const { state, reload } = useLoad(fetch, t("monitors.detail.budget.failed"));
  useEffect(() => {
    const timer = setInterval(() => void reload(true), 60_000);
    return () => clearInterval(timer);
  }, [reload]);
  if (state.phase === "loading" || (state.phase === "loaded" && state.data === null)) return null;
  if (state.phase === "error") return <LoadError message={state.message} onRetry={reload} data-testid="budget-error" />;
  const b = state.data!;
  const left = Math.max(0, Math.min(100, b.remaining));
  const duration = (ms: number) => formatDuration(Math.round(Math.max(0, ms) / 1000), units);
  return (
    <Card data-testid="monitor-budget">
      <SectionTitle
        actions={
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${STATE_STYLE[b.state]}`} data-testid="budget-state">
            {t(`monitors.detail.budget.states.${b.state}`)}
          </span>
        }
      >
        {t("monitors.detail.budget.title")}
      </SectionTitle>
      <div className="space-y-4 px-5 py-5 sm:px-6">
        <div className="h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
          <div className={`h-full ${b.state === "ok" ? "bg-emerald-500" : b.state === "burning-slow" ? "bg-amber-500" : "bg-red-500"}`} style={{ width: `${left}%` }} />
        </div>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5">
          <Fact label={t("monitors.detail.budget.objective")} testId="budget-objective">
            {t("monitors.detail.budget.objectiveValue", { objective: b.objective, days: b.objectiveDays })}
          </Fact>
          <Fact label={t("monitors.detail.budget.availability")} testId="budget-availability">
            {b.availability === null ? "-" : `${b.availability.toFixed(3)} %`}
          </Fact>
          <Fact label={t("monitors.detail.budget.remaining")} testId="budget-remaining">
            {`${b.remaining.toFixed(1)} %`}
            <span className="block text-xs text-slate-500">{t("monitors.detail.budget.remainingTime", { left: duration(b.remainingMs), total: duration(b.budgetMs) })}</span>
          </Fact>
          <Fact label={t("monitors.detail.budget.burn1h")} testId="budget-burn-1h">
            {`${b.burnRates["1h"]}×`}
            <span className="block text-xs text-slate-500">{t("monitors.detail.budget.alertAt", { rate: b.thresholds.fast })}</span>
          </Fact>
          <Fact label={t("monitors.detail.budget.burn6h")} testId="budget-burn-6h">
            {`${b.burnRates["6h"]}×`}
            <span className="block text-xs text-slate-500">{t("monitors.detail.budget.alertAt", { rate: b.thresholds.slow })}</span>
          </Fact>
        </dl>
        <p className="text-xs text-slate-500">{t("monitors.detail.budget.explain")}</p>
      </div>
    </Card>
  );
}
