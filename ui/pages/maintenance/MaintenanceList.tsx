import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useSearch } from "wouter";
import { errorMessage } from "../../api/errors";
import { deleteMaintenance, endMaintenance, listMaintenance, type PublicMaintenance } from "../../api/maintenance";
import { Button, ButtonLink, buttonClass } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { FilterPills } from "../../components/FilterPills";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { usePolling } from "../../components/hooks";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";
import { useLive } from "../../state/live";
import { countByState, sortWindows, STATE_FILTERS, type StateFilter } from "./model";
import { MaintenanceStateBadge, useScheduleText, useZonedFormat } from "./parts";
import { EditorOnly } from "../../components/guards";
import { ManagedBadge, useManagedMarks } from "../../components/Managed";

/** Windows start and end on their own: the list asks again this often (and when targets enter or leave maintenance). */
const REFRESH_MS = 30_000;

function WindowRow({ w, busy, onEnd, onDelete }: { w: PublicMaintenance; busy: boolean; onEnd: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const scheduleText = useScheduleText();
  const inZone = useZonedFormat(w.schedule.timezone);
  const local = useZonedFormat();
  const occurrence = w.current ?? w.next;
  const covers =
    w.scope === "all" ? t("maintenance.coversAll") : t("maintenance.coversCount", { monitors: w.monitorIds.length, agents: w.agentIds.length });
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between" data-testid={`maintenance-row-${w.id}`}>
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <Link href={`/maintenance/edit/${w.id}`} className="break-words font-medium text-slate-900 hover:text-indigo-600" data-testid="maintenance-title">
            {w.title}
          </Link>
          <MaintenanceStateBadge state={w.state} data-testid="maintenance-state" />
          <ManagedBadge what="maintenance" id={w.id} testId={`maintenance-managed-${w.id}`} />
        </div>
        <p className="text-sm text-slate-600" data-testid="maintenance-schedule">
          {scheduleText(w.schedule)}
        </p>
        <p className="text-xs text-slate-500">{covers}</p>
        {occurrence && (
          <p className="text-xs text-slate-500" data-testid="maintenance-occurrence" title={local.range(occurrence, t("maintenance.untilEnded"))}>
            {t(w.current ? "maintenance.now" : "maintenance.nextAt", { range: inZone.range(occurrence, t("maintenance.untilEnded")) })}
          </p>
        )}
        {w.description && <p className="whitespace-pre-line break-words text-sm text-slate-500">{w.description}</p>}
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {w.state === "active" && (
          <Button size="sm" variant="secondary" busy={busy} onClick={onEnd} data-testid="maintenance-end">
            {t("maintenance.endNow")}
          </Button>
        )}
        <EditorOnly>
          <Link href={`/maintenance/edit/${w.id}`} className={buttonClass("secondary", "sm")} data-testid="maintenance-edit">
            {t("common.edit")}
          </Link>
          <Button size="sm" variant="dangerGhost" onClick={onDelete} data-testid="maintenance-delete">
            {t("common.delete")}
          </Button>
        </EditorOnly>
      </div>
    </li>
  );
}

/** Every maintenance window: in progress, coming and ended, with "end now", edit and delete. */
export default function MaintenanceList() {
  const { t } = useTranslation();
  useDocumentTitle(t("maintenance.title"));
  useManagedMarks();
  const search = useSearch();
  const filter = (new URLSearchParams(search).get("status") ?? "all") as StateFilter;
  const fetch = useCallback(async () => (await listMaintenance()).windows ?? [], []);
  const { state, reload, update } = useLoad(fetch, t("maintenance.fetchFailed"));
  const [ending, setEnding] = useState<number | null>(null);
  usePolling(() => reload(true), REFRESH_MS);
  useLive("maintenance.change", () => void reload(true));

  const { ask, dialog } = useDeleteConfirmation<PublicMaintenance>({
    section: "maintenance",
    message: (w) => t("maintenance.confirmDelete.message", { title: w.title }),
    remove: deleteMaintenance,
    onDeleted: (id) => update((list) => list.filter((w) => w.id !== id)),
  });

  const end = async (w: PublicMaintenance) => {
    setEnding(w.id);
    try {
      const { window } = await endMaintenance(w.id);
      update((list) => list.map((x) => (x.id === w.id ? window : x)));
      toast.success(t("maintenance.ended"));
    } catch (err) {
      toast.error(errorMessage(err, t("maintenance.endFailed")));
    } finally {
      setEnding(null);
    }
  };

  const windows = state.phase === "loaded" ? state.data : [];
  const counts = countByState(windows);
  const shown = sortWindows(windows.filter((w) => filter === "all" || w.state === filter));
  return (
    <div>
      <PageHeader
        title={t("maintenance.title")}
        description={t("maintenance.subtitle")}
        actions={
          <EditorOnly>
            <ButtonLink href="/maintenance/create" data-testid="maintenance-create-button">
              {t("maintenance.create")}
            </ButtonLink>
          </EditorOnly>
        }
      />
      {state.phase === "loading" && <LoadingMessage data-testid="maintenance-loading">{t("maintenance.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError message={state.message} onRetry={() => void reload()} data-testid="maintenance-error" />}
      {state.phase === "loaded" && (
        <>
          <FilterPills
            base="/maintenance"
            label={t("maintenance.filterLabel")}
            value={filter === "all" ? null : filter}
            testId="maintenance-filter"
            className="mb-4"
            options={[
              { key: null, label: t("maintenance.states.all"), count: counts.all },
              ...STATE_FILTERS.map((key) => ({ key, label: t(`maintenance.states.${key}`), count: counts[key] })),
            ]}
          />
          <Card>
            {shown.length === 0 ? (
              <p className="p-8 text-center text-sm text-slate-500" data-testid="maintenance-empty">
                {windows.length === 0 ? t("maintenance.empty") : t("maintenance.emptyFiltered")}
              </p>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="maintenance-list">
                {shown.map((w) => (
                  <WindowRow key={w.id} w={w} busy={ending === w.id} onEnd={() => void end(w)} onDelete={() => ask(w)} />
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
      {dialog}
    </div>
  );
}
