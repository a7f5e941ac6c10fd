import { useTranslation } from "react-i18next";
import type { IncidentImpact, IncidentState } from "../../api/incidents";

// Small pieces shared by the incident screens.

const IMPACT_STYLE: Record<IncidentImpact, string> = {
  minor: "bg-amber-50 text-amber-800 ring-amber-600/25",
  major: "bg-orange-50 text-orange-800 ring-orange-600/25",
  critical: "bg-red-50 text-red-700 ring-red-600/20",
};

const STATE_STYLE: Record<IncidentState, string> = {
  investigating: "bg-red-50 text-red-700 ring-red-600/20",
  identified: "bg-orange-50 text-orange-800 ring-orange-600/25",
  monitoring: "bg-sky-50 text-sky-700 ring-sky-600/20",
  resolved: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
};

const BADGE = "inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset";

export function ImpactBadge({ impact, "data-testid": testId }: { impact: IncidentImpact; "data-testid"?: string }) {
  const { t } = useTranslation();
  return (
    <span data-testid={testId} data-impact={impact} className={`${BADGE} ${IMPACT_STYLE[impact]}`}>
      {t(`incidents.impacts.${impact}`)}
    </span>
  );
}

export function StateBadge({ state, "data-testid": testId }: { state: IncidentState; "data-testid"?: string }) {
  const { t } = useTranslation();
  return (
    <span data-testid={testId} data-state={state} className={`${BADGE} ${STATE_STYLE[state]}`}>
      {t(`incidents.states.${state}`)}
    </span>
  );
}
