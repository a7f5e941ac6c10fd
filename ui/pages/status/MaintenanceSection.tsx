// The status page's maintenance: windows in progress and those coming within a week that cover items of the page,
// with the operator's description (plain text).
//
// data-testids: `status-maintenance`, `status-maintenance-{id}` (data-state), `status-maintenance-time-{id}`.
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { StatusMaintenance } from "../../api/maintenance";
import { useZonedFormat } from "../maintenance/parts";

export function MaintenanceSection({ windows }: { windows: StatusMaintenance[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  const format = useZonedFormat();
  return (
    <section data-testid="status-maintenance" aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-3 text-lg font-semibold text-slate-900">
        {t("statusPage.maintenance.title")}
      </h2>
      <ul className="space-y-3">
        {windows.map((w) => (
          <li key={w.id} data-testid={`status-maintenance-${w.id}`} data-state={w.state} className="rounded-xl border border-sky-200 bg-sky-50 p-4">
            <div className="flex flex-wrap items-center gap-2">
              <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${w.state === "active" ? "bg-sky-600 text-white" : "bg-white text-sky-700 ring-1 ring-inset ring-sky-300"}`}>
                {t(`statusPage.maintenance.${w.state}`)}
              </span>
              <h3 className="min-w-0 break-words font-medium text-sky-950">{w.title}</h3>
            </div>
            <p className="mt-1 text-sm text-sky-900" data-testid={`status-maintenance-time-${w.id}`}>
              {format.range({ start: w.start, end: w.end }, t("statusPage.maintenance.until"))}
            </p>
            {w.description && <p className="mt-2 whitespace-pre-line break-words text-sm text-sky-900">{w.description}</p>}
            {w.affects.length > 0 && <p className="mt-2 text-xs text-sky-800">{t("statusPage.maintenance.affects", { names: w.affects.join(t("maintenance.listSeparator")) })}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
