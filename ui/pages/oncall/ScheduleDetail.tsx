// /oncall/:id: one schedule — who is on call now and next, its overrides (editors add and delete them), and the next
// two weeks' shifts as a strip and a list, every time in the schedule's zone. An override saved or deleted refreshes
// both at once: the server answers with the schedule as it now is.
//
// data-testids: `oncall-detail`, `oncall-detail-loading`, `oncall-detail-error`, `oncall-detail-name`,
//   `oncall-detail-summary`, `oncall-detail-now`, `oncall-detail-next`, `oncall-detail-edit`, `oncall-back`, the
//   overrides (OverridesCard.tsx) and the shifts (ShiftsCard.tsx).
import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "wouter";
import { getSchedule, listPeople, listShifts, type OnCallPerson, type OnCallSchedule, type OnCallShift } from "../../api/oncall";
import { ButtonLink } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { EditorOnly } from "../../components/guards";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";
import { canEdit } from "../../state/session";
import { twoWeeks } from "./model";
import { OverridesCard } from "./OverridesCard";
import { NowNext, useReloadAtHandover, useRotationText } from "./parts";
import { ShiftsCard } from "./ShiftsCard";

interface Loaded {
  schedule: OnCallSchedule;
  shifts: OnCallShift[];
  range: { from: number; to: number };
  /** Whom an override may name (editors only; empty for viewers). */
  people: OnCallPerson[];
}

async function load(id: number, editor: boolean): Promise<Loaded> {
  const { schedule } = await getSchedule(id);
  const range = twoWeeks(Date.now(), schedule.timeZone);
  const [shifts, people] = await Promise.all([listShifts(id, range.from, range.to), editor ? listPeople() : null]);
  return { schedule, shifts: shifts.shifts ?? [], range, people: people?.people ?? [] };
}

export default function ScheduleDetail() {
  useSignals();
  const { t } = useTranslation();
  const id = Number(useParams<{ id: string }>().id);
  const editor = canEdit.value;
  const fetch = useCallback(() => load(id, editor), [id, editor]);
  const { state, reload } = useLoad(fetch, t("oncall.fetchFailed"));
  const rotation = useRotationText();
  const loaded = state.phase === "loaded" ? state.data.schedule : null;
  useReloadAtHandover(useMemo(() => (loaded ? [loaded] : null), [loaded]), useCallback(() => void reload(true), [reload]));
  const name = state.phase === "loaded" ? state.data.schedule.name : t("oncall.title");
  useDocumentTitle(name);

  return (
    <div data-testid="oncall-detail">
      <PageHeader
        title={<span data-testid="oncall-detail-name">{name}</span>}
        description={state.phase === "loaded" ? <span data-testid="oncall-detail-summary">{rotation(state.data.schedule)}</span> : undefined}
        actions={
          <>
            <ButtonLink href="/oncall" variant="secondary" data-testid="oncall-back">
              {t("oncall.backToList")}
            </ButtonLink>
            <EditorOnly>
              <ButtonLink href={`/oncall/edit/${id}`} data-testid="oncall-detail-edit">
                {t("common.edit")}
              </ButtonLink>
            </EditorOnly>
          </>
        }
      />
      {state.phase === "loading" && <LoadingMessage data-testid="oncall-detail-loading">{t("oncall.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError data-testid="oncall-detail-error" message={state.message} onRetry={() => void reload()} />}
      {state.phase === "loaded" && (
        <div className="space-y-6">
          <Card className="px-4 py-4 sm:px-6">
            <NowNext schedule={state.data.schedule} prefix="oncall-detail" />
            <p className="mt-2 text-xs text-slate-500">{t("oncall.times", { zone: state.data.schedule.timeZone })}</p>
          </Card>
          <OverridesCard schedule={state.data.schedule} people={state.data.people} onChanged={() => void reload(true)} />
          <ShiftsCard schedule={state.data.schedule} shifts={state.data.shifts} range={state.data.range} />
        </div>
      )}
    </div>
  );
}
