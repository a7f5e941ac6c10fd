// /oncall: every on-call schedule with its rotation in words, its people in order, who is on call now (until when)
// and who is next (from when), in the schedule's zone. Editors add, edit and delete (with confirmation); everyone
// opens a schedule's page for its overrides and the next two weeks' shifts.
//
// data-testids: `oncall-add`, `oncall-loading`, `oncall-load-error`, `oncall-empty`, `oncall-list`, `schedule-row-{id}`,
//   `schedule-name-{id}` (a link to its page), `schedule-summary-{id}`, `schedule-participants-{id}`,
//   `schedule-{id}-now`, `schedule-{id}-next`, `schedule-open-{id}`, `schedule-edit-{id}`, `schedule-delete-{id}`.
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { deleteSchedule, listSchedules, type OnCallSchedule } from "../../api/oncall";
import { Button, ButtonLink } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { EditorOnly } from "../../components/guards";
import { PlusIcon } from "../../components/icons";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";
import { NowNext, useReloadAtHandover, useRotationText } from "./parts";

const fetchSchedules = async () => (await listSchedules()).schedules ?? [];

export default function OnCall() {
  const { t } = useTranslation();
  useDocumentTitle(t("oncall.title"));
  const { state, reload, update } = useLoad(fetchSchedules, t("oncall.fetchFailed"));
  useReloadAtHandover(state.phase === "loaded" ? state.data : null, useCallback(() => void reload(true), [reload]));
  const { ask, deletingId, dialog } = useDeleteConfirmation<OnCallSchedule>({
    section: "oncall",
    message: (s) => t("oncall.confirmDelete.message", { name: s.name }),
    remove: deleteSchedule,
    onDeleted: (id) => update((list) => list.filter((s) => s.id !== id)),
  });

  return (
    <div>
      <PageHeader
        title={t("oncall.title")}
        description={t("oncall.description")}
        actions={
          <EditorOnly>
            <ButtonLink href="/oncall/new" data-testid="oncall-add">
              <PlusIcon className="size-4" />
              {t("oncall.add")}
            </ButtonLink>
          </EditorOnly>
        }
      />
      {state.phase === "loading" && <LoadingMessage data-testid="oncall-loading">{t("oncall.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError data-testid="oncall-load-error" message={state.message} onRetry={() => void reload()} />}
      {state.phase === "loaded" &&
        (state.data.length === 0 ? (
          <Card>
            <p data-testid="oncall-empty" className="px-6 py-12 text-center text-sm text-slate-500">
              {t("oncall.empty")}
            </p>
          </Card>
        ) : (
          <ul data-testid="oncall-list" className="grid gap-4 lg:grid-cols-2">
            {state.data.map((s) => (
              <ScheduleRow key={s.id} schedule={s} deleting={deletingId === s.id} onDelete={() => ask(s)} />
            ))}
          </ul>
        ))}
      {dialog}
    </div>
  );
}

function ScheduleRow({ schedule: s, deleting, onDelete }: { schedule: OnCallSchedule; deleting: boolean; onDelete: () => void }) {
  const { t } = useTranslation();
  const rotation = useRotationText();
  return (
    <li data-testid={`schedule-row-${s.id}`} className="min-w-0">
      <Card className="flex h-full flex-col gap-3 px-4 py-4 sm:px-5">
        <div className="min-w-0">
          <Link href={`/oncall/${s.id}`} data-testid={`schedule-name-${s.id}`} className="block truncate text-base font-semibold text-slate-900 hover:text-indigo-700">
            {s.name}
          </Link>
          <p data-testid={`schedule-summary-${s.id}`} className="mt-0.5 text-xs text-slate-500 break-words [overflow-wrap:anywhere]">
            {rotation(s)}
          </p>
        </div>
        <NowNext schedule={s} prefix={`schedule-${s.id}`} />
        <p data-testid={`schedule-participants-${s.id}`} className="text-xs text-slate-600 break-words [overflow-wrap:anywhere]">
          <span className="font-medium text-slate-700">{t("oncall.rotationLabel")}:</span> {s.participants.map((p) => p.username).join(" → ")}
        </p>
        <div className="mt-auto flex flex-wrap gap-2 pt-1">
          <ButtonLink href={`/oncall/${s.id}`} variant="secondary" size="sm" data-testid={`schedule-open-${s.id}`}>
            {t("oncall.open")}
          </ButtonLink>
          <EditorOnly>
            <ButtonLink href={`/oncall/edit/${s.id}`} variant="secondary" size="sm" data-testid={`schedule-edit-${s.id}`}>
              {t("common.edit")}
            </ButtonLink>
            <Button variant="dangerGhost" size="sm" busy={deleting} onClick={onDelete} data-testid={`schedule-delete-${s.id}`}>
              {t("common.delete")}
            </Button>
          </EditorOnly>
        </div>
      </Card>
    </li>
  );
}
