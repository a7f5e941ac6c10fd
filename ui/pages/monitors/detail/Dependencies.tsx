// A monitor's dependencies on its page: the monitors it depends on (links, in the details), and while its failures
// are held because one of them is down, the notice saying so. A held monitor stays "down" (the API's status): the
// notice and the error ("Unreachable: router is down") tell why nobody was alerted.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { listMonitorNames, type PublicMonitor } from "../../../api/monitors";
import { Fact } from "../../../components/DetailParts";

/** "Unreachable: Router is down — alerts held", linking to the monitor that is down. data-testid `monitor-unreachable`. */
export function UnreachableNotice({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  if (!monitor.unreachable || !monitor.active) return null;
  const { id, name } = monitor.unreachable;
  return (
    <p data-testid="monitor-unreachable" role="status" className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200">
      {t("monitors.detail.unreachableBefore")}
      <Link href={`/monitors/${id}`} className="font-medium underline underline-offset-2">
        {name}
      </Link>
      {t("monitors.detail.unreachableAfter")}
    </p>
  );
}

/** The monitors it depends on, by name (a deleted one leaves the list on the server). data-testid `monitor-info-depends-on`. */
export function DependsOnFact({ ids }: { ids: number[] }) {
  const { t } = useTranslation();
  const [names, setNames] = useState<Map<number, string>>(new Map());
  const key = ids.join(",");
  useEffect(() => {
    if (!key) return;
    let live = true;
    listMonitorNames()
      .then((r) => live && setNames(new Map((r.monitors ?? []).map((m) => [m.id, m.name]))))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [key]);
  return (
    <Fact label={t("monitors.detail.info.dependsOn")} testId="monitor-info-depends-on">
      {ids.length === 0 ? (
        t("monitors.detail.info.none")
      ) : (
        <span className="flex flex-wrap gap-x-2 gap-y-1">
          {ids.map((id) => (
            <Link key={id} href={`/monitors/${id}`} className="font-medium text-indigo-600 hover:underline" data-testid={`monitor-depends-on-${id}`}>
              {names.get(id) ?? `#${id}`}
            </Link>
          ))}
        </span>
      )}
    </Fact>
  );
}
