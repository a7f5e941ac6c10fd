// The status page's incidents: open ones with their whole timeline (newest update first), and the history of the
// last 90 days, folded.
//
// data-testids: `status-incidents`, `status-incident-{id}` (data-impact, data-state), `status-incident-update`,
//   `status-history`, `status-history-{id}`.
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { IncidentImpact, StatusIncident } from "../../api/incidents";
import { LinkedText } from "../../components/LinkedText";
import { useZonedFormat } from "../maintenance/parts";

const IMPACT_STYLE: Record<IncidentImpact, string> = {
  minor: "border-amber-200 bg-amber-50",
  major: "border-orange-300 bg-orange-50",
  critical: "border-red-300 bg-red-50",
};

function Timeline({ incident }: { incident: StatusIncident }) {
  const { t } = useTranslation();
  const format = useZonedFormat();
  return (
    <ol className="mt-3 space-y-3 border-l-2 border-slate-200 pl-4">
      {[...incident.updates].reverse().map((u, i) => (
        <li key={`${u.at}-${i}`} data-testid="status-incident-update">
          <p className="text-sm">
            <span className="font-semibold text-slate-900">{t(`incidents.states.${u.state}`)}</span>
            <span className="ml-2 text-xs text-slate-500">{format.full(u.at)}</span>
          </p>
          <LinkedText text={u.message} className="mt-0.5 block text-sm text-slate-700" />
        </li>
      ))}
    </ol>
  );
}

export function IncidentSection({ incidents }: { incidents: StatusIncident[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section data-testid="status-incidents" aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-3 text-lg font-semibold text-slate-900">
        {t("statusPage.incidents.title")}
      </h2>
      <ul className="space-y-3">
        {incidents.map((x) => (
          <li key={x.id} data-testid={`status-incident-${x.id}`} data-impact={x.impact} data-state={x.state} className={`rounded-xl border p-4 ${IMPACT_STYLE[x.impact]}`}>
            <div className="flex flex-wrap items-center gap-2">
              <span className="rounded-full bg-white px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-inset ring-slate-300">{t(`incidents.impacts.${x.impact}`)}</span>
              <h3 className="min-w-0 break-words font-semibold text-slate-900">{x.title}</h3>
            </div>
            {x.affects.length > 0 && <p className="mt-1 text-xs text-slate-600">{t("statusPage.maintenance.affects", { names: x.affects.join(t("maintenance.listSeparator")) })}</p>}
            <Timeline incident={x} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function IncidentHistory({ incidents }: { incidents: StatusIncident[] }) {
  const { t } = useTranslation();
  const format = useZonedFormat();
  const headingId = useId();
  return (
    <section data-testid="status-history" aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-3 text-lg font-semibold text-slate-900">
        {t("statusPage.incidents.history")}
      </h2>
      <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
        {incidents.map((x) => (
          <li key={x.id} data-testid={`status-history-${x.id}`} className="px-4 py-3">
            <details>
              <summary className="cursor-pointer list-inside text-sm">
                <span className="font-medium text-slate-900">{x.title}</span>
                <span className="ml-2 text-xs text-slate-500">
                  {format.full(x.createdAt)}
                  {x.resolvedAt !== null && ` – ${format.full(x.resolvedAt)}`}
                </span>
              </summary>
              <Timeline incident={x} />
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
