import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors";
import { previewMaintenance, type MaintenanceInput, type Occurrence } from "../../api/maintenance";
import { useZonedFormat } from "./parts";
import { browserZone } from "./zones";

type PreviewState = { phase: "idle" } | { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; occurrences: Occurrence[] };

/** Asks the server once the schedule has stopped changing for this long. */
const DEBOUNCE_MS = 300;

/**
 * The next five occurrences as the server computes them, in the window's zone and (when it differs) the reader's:
 * what "02:00 Europe/Berlin every Sunday" means is seen before it is saved.
 */
export function SchedulePreview({ schedule, ready }: { schedule: MaintenanceInput["schedule"]; ready: boolean }) {
  const { t } = useTranslation();
  const [state, setState] = useState<PreviewState>({ phase: "idle" });
  const key = JSON.stringify(schedule);
  const zone = schedule.timezone ?? browserZone();
  const local = browserZone();
  const inZone = useZonedFormat(zone);
  const inLocal = useZonedFormat(local);

  useEffect(() => {
    if (!ready) return setState({ phase: "idle" });
    let current = true;
    const timer = setTimeout(() => {
      setState({ phase: "loading" });
      previewMaintenance(JSON.parse(key))
        .then((reply) => current && setState({ phase: "loaded", occurrences: reply.preview.occurrences }))
        .catch((err) => current && setState({ phase: "error", message: errorMessage(err, t("maintenance.preview.failed")) }));
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, ready, t]);

  const until = t("maintenance.untilEnded");
  return (
    <div className="rounded-lg bg-slate-50 p-4 ring-1 ring-inset ring-slate-200" data-testid="maintenance-preview" aria-live="polite">
      <h3 className="text-sm font-medium text-slate-700">{t("maintenance.preview.title")}</h3>
      {state.phase === "idle" && <p className="mt-2 text-sm text-slate-500">{t("maintenance.preview.incomplete")}</p>}
      {state.phase === "loading" && <p className="mt-2 text-sm text-slate-500">{t("maintenance.preview.loading")}</p>}
      {state.phase === "error" && (
        <p className="mt-2 text-sm font-medium text-red-600" data-testid="maintenance-preview-error">
          {state.message}
        </p>
      )}
      {state.phase === "loaded" &&
        (state.occurrences.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500" data-testid="maintenance-preview-none">
            {t("maintenance.preview.none")}
          </p>
        ) : (
          <table className="mt-2 w-full text-left text-sm">
            <thead>
              <tr className="text-xs text-slate-500">
                <th className="py-1 pr-4 font-medium">{t("maintenance.preview.inZone", { zone })}</th>
                {local !== zone && <th className="py-1 font-medium">{t("maintenance.preview.inYourZone", { zone: local })}</th>}
              </tr>
            </thead>
            <tbody>
              {state.occurrences.map((o) => (
                <tr key={o.start} data-testid="maintenance-preview-row">
                  <td className="py-1 pr-4 tabular-nums text-slate-800" data-testid="maintenance-preview-zone">
                    {inZone.range(o, until)}
                  </td>
                  {local !== zone && (
                    <td className="py-1 tabular-nums text-slate-600" data-testid="maintenance-preview-local">
                      {inLocal.range(o, until)}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </div>
  );
}
