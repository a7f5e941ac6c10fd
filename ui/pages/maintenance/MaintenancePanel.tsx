// The maintenance card of a monitor's or an agent's page: the window it is in now (with "end now") or its next one,
// and "start maintenance now" for 30 minutes, 1 hour or 2 hours.
//
// data-testids: `maintenance-panel`, `maintenance-panel-current`, `maintenance-panel-next`, `maintenance-panel-none`,
//   `maintenance-panel-end`, `maintenance-start-{30|60|120}`.
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link } from "wouter";
import { errorMessage } from "../../api/errors";
import { endMaintenance, listMaintenance, startMaintenance, type PublicMaintenance } from "../../api/maintenance";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { useLoad } from "../../components/useLoad";
import { useLive } from "../../state/live";
import { QUICK_DURATIONS } from "./model";
import { useZonedFormat } from "./parts";
import { EditorOnly } from "../../components/guards";

type Target = { type: "monitor" | "agent"; id: number; name: string };

/** The window in progress that ends last, else the one starting soonest. */
function pick(windows: PublicMaintenance[]) {
  const current = windows.filter((w) => w.current).sort((a, b) => (b.current!.end ?? Infinity) - (a.current!.end ?? Infinity))[0];
  const next = windows.filter((w) => w.next).sort((a, b) => a.next!.start - b.next!.start)[0];
  return { current, next };
}

export function MaintenancePanel({ target }: { target: Target }) {
  const { t } = useTranslation();
  const fetch = useCallback(async () => (await listMaintenance(target.type === "monitor" ? { monitorId: target.id } : { agentId: target.id })).windows ?? [], [target.type, target.id]);
  const { state, reload } = useLoad(fetch, t("maintenance.fetchFailed"));
  const [busy, setBusy] = useState<string | null>(null);
  const format = useZonedFormat();
  useLive("maintenance.change", (e) => {
    const ids = target.type === "monitor" ? e.monitors : e.agents;
    if (ids.entered.includes(target.id) || ids.left.includes(target.id)) void reload(true);
  });

  const run = async (key: string, work: () => Promise<unknown>, done: string) => {
    setBusy(key);
    try {
      await work();
      toast.success(done);
      await reload(true);
    } catch (err) {
      toast.error(errorMessage(err, t("maintenance.saveFailed")));
    } finally {
      setBusy(null);
    }
  };
  const start = (minutes: number) =>
    run(
      `start-${minutes}`,
      () => startMaintenance({ title: t("maintenance.quickTitle", { name: target.name }), minutes, ...(target.type === "monitor" ? { monitorIds: [target.id] } : { agentIds: [target.id] }) }),
      t("maintenance.started"),
    );

  const windows = state.phase === "loaded" ? state.data : [];
  const { current, next } = pick(windows);
  const until = t("maintenance.untilEnded");
  return (
    <Card data-testid="maintenance-panel">
      <CardHeader title={t("maintenance.panel.title")} description={t("maintenance.panel.hint")} />
      <div className="space-y-4 px-5 py-5 sm:px-6">
        {state.phase === "error" && <p className="text-sm text-red-600">{state.message}</p>}
        {current ? (
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-sky-50 p-3 ring-1 ring-inset ring-sky-200" data-testid="maintenance-panel-current">
            <p className="min-w-0 text-sm text-sky-900">
              <span className="font-medium">{t("maintenance.panel.inMaintenance")}</span>{" "}
              <Link href={`/maintenance/edit/${current.id}`} className="underline">
                {current.title}
              </Link>
              <span className="block text-xs text-sky-800">{format.range(current.current!, until)}</span>
            </p>
            <EditorOnly>
              <Button size="sm" variant="secondary" busy={busy === "end"} onClick={() => void run("end", () => endMaintenance(current.id), t("maintenance.ended"))} data-testid="maintenance-panel-end">
                {t("maintenance.endNow")}
              </Button>
            </EditorOnly>
          </div>
        ) : next ? (
          <p className="text-sm text-slate-600" data-testid="maintenance-panel-next">
            {t("maintenance.panel.next")}{" "}
            <Link href={`/maintenance/edit/${next.id}`} className="font-medium text-slate-800 underline">
              {next.title}
            </Link>{" "}
            <span className="text-slate-500">{format.range(next.next!, until)}</span>
          </p>
        ) : (
          state.phase === "loaded" && (
            <p className="text-sm text-slate-500" data-testid="maintenance-panel-none">
              {t("maintenance.panel.none")}
            </p>
          )
        )}
        <EditorOnly>
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-sm text-slate-600">{t("maintenance.panel.startNow")}</span>
            {QUICK_DURATIONS.map((minutes) => (
              <Button key={minutes} size="sm" variant="secondary" busy={busy === `start-${minutes}`} onClick={() => void start(minutes)} data-testid={`maintenance-start-${minutes}`}>
                {t(`maintenance.panel.for${minutes}` as "maintenance.panel.for30")}
              </Button>
            ))}
          </div>
        </EditorOnly>
      </div>
    </Card>
  );
}
