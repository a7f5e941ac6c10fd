// A policy's steps in the form: each step's channels, people and on-call schedules, and its wait before the next; add,
// remove, move up and down; then how the last step repeats.
//
// data-testids: `escalation-steps`, `escalation-step-{i}` (i from 0), `escalation-step-{i}-channel-{channelId}`,
//   `escalation-step-{i}-person-{userId}`, `escalation-step-{i}-schedule-{scheduleId}` (checkboxes; `…-person-empty`,
//   `…-schedule-empty` when there is nothing to choose), `escalation-step-{i}-wait`, `escalation-step-{i}-up|down|remove`, `escalation-error-step-{i}-channels`,
//   `escalation-error-step-{i}-wait`, `escalation-error-steps`, `escalation-add-step`, `escalation-repeat-every`,
//   `escalation-repeat-limit`, `escalation-error-repeat-every`, `escalation-error-repeat-limit`.
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { POLICY_LIMITS } from "../../api/escalation";
import type { PublicChannel } from "../../api/notifications";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { CheckList } from "../../components/CheckList";
import { Field, TextInput } from "../../components/form";
import { PlusIcon } from "../../components/icons";
import { ChannelPicker } from "../notifications/parts";
import { moveStep, newStep, type PolicyDraft, type StepDraft } from "./model";
import type { PersonOption, ScheduleOption } from "./parts";

interface StepsEditorProps {
  draft: PolicyDraft;
  channels: PublicChannel[];
  people: PersonOption[];
  schedules: ScheduleOption[];
  onChange: (patch: Partial<PolicyDraft>) => void;
  /** A field's problem, translated, by its name in model.ts (`steps.{i}.wait` …). */
  error: (field: string) => string | undefined;
}

export function StepsEditor({ draft, channels, people, schedules, onChange, error }: StepsEditorProps) {
  const { t } = useTranslation();
  const { steps } = draft;
  const setStep = (index: number, patch: Partial<StepDraft>) => onChange({ steps: steps.map((s, i) => (i === index ? { ...s, ...patch } : s)) });
  const repeating = draft.repeatEvery.trim() !== "";
  return (
    <Card data-testid="escalation-steps">
      <CardHeader title={t("escalation.form.steps")} description={t("escalation.form.stepsHint")} />
      <div className="space-y-4 px-4 py-5 sm:px-6">
        <ol className="space-y-4">
          {steps.map((step, i) => {
            const last = i === steps.length - 1;
            const n = i + 1;
            return (
              <li key={step.key} data-testid={`escalation-step-${i}`} className="space-y-4 rounded-lg p-3 ring-1 ring-inset ring-slate-200 sm:p-4">
                <div className="flex items-center justify-between gap-2">
                  <h3 className="text-sm font-semibold text-slate-900">{t("escalation.form.step", { n })}</h3>
                  <div className="flex gap-1">
                    <Button variant="ghost" size="sm" disabled={i === 0} onClick={() => onChange({ steps: moveStep(steps, i, -1) })} aria-label={t("escalation.form.moveUp", { n })} title={t("escalation.form.moveUp", { n })} data-testid={`escalation-step-${i}-up`}>
                      ↑
                    </Button>
                    <Button variant="ghost" size="sm" disabled={last} onClick={() => onChange({ steps: moveStep(steps, i, 1) })} aria-label={t("escalation.form.moveDown", { n })} title={t("escalation.form.moveDown", { n })} data-testid={`escalation-step-${i}-down`}>
                      ↓
                    </Button>
                    <Button variant="dangerGhost" size="sm" disabled={steps.length === 1} onClick={() => onChange({ steps: steps.filter((_, j) => j !== i) })} aria-label={t("escalation.form.removeStep", { n })} title={t("escalation.form.removeStep", { n })} data-testid={`escalation-step-${i}-remove`}>
                      ✕
                    </Button>
                  </div>
                </div>
                <div>
                  <ChannelPicker
                    channels={channels}
                    value={step.channelIds}
                    onChange={(channelIds) => setStep(i, { channelIds })}
                    prefix={`escalation-step-${i}`}
                    enabled={false}
                    legend={t("escalation.form.stepChannels")}
                    hint={t("escalation.form.stepChannelsHint", { max: POLICY_LIMITS.recipientsPerStep })}
                  />
                  <div className="mt-3 grid gap-3 lg:grid-cols-2">
                    <CheckList
                      items={people.map((p) => ({ id: p.id, name: p.username }))}
                      value={step.userIds}
                      onChange={(userIds) => setStep(i, { userIds })}
                      prefix={`escalation-step-${i}-person`}
                      legend={t("escalation.form.stepPeople")}
                      hint={t("escalation.form.stepPeopleHint")}
                      empty={t("escalation.form.noPeople")}
                    />
                    <CheckList
                      items={schedules.map((s) => ({ id: s.id, name: s.name, detail: s.onCallNow === null ? t("escalation.form.nobodyOnCall") : t("escalation.form.onCallNow", { name: s.onCallNow }) }))}
                      value={step.scheduleIds}
                      onChange={(scheduleIds) => setStep(i, { scheduleIds })}
                      prefix={`escalation-step-${i}-schedule`}
                      legend={t("escalation.form.stepSchedules")}
                      hint={t("escalation.form.stepSchedulesHint")}
                      empty={
                        <>
                          {t("escalation.form.noSchedules")}{" "}
                          <Link href="/oncall" className="font-medium text-indigo-600 hover:underline">
                            {t("escalation.form.addSchedule")}
                          </Link>
                        </>
                      }
                    />
                  </div>
                  {error(`steps.${i}.channels`) && (
                    <p className="mt-1 text-xs font-medium text-red-600" data-testid={`escalation-error-step-${i}-channels`}>
                      {error(`steps.${i}.channels`)}
                    </p>
                  )}
                </div>
                {last ? (
                  <p className="text-xs text-slate-500">{t("escalation.form.lastStep")}</p>
                ) : (
                  <div className="max-w-xs">
                    <Field label={t("escalation.form.wait", { n: n + 1 })} error={error(`steps.${i}.wait`)} errorTestId={`escalation-error-step-${i}-wait`}>
                      {(id) => (
                        <WholeNumberInput
                          id={id}
                          range={POLICY_LIMITS.waitMinutes}
                          value={step.wait}
                          onChange={(wait) => setStep(i, { wait })}
                          invalid={error(`steps.${i}.wait`) !== undefined}
                          testId={`escalation-step-${i}-wait`}
                        />
                      )}
                    </Field>
                  </div>
                )}
              </li>
            );
          })}
        </ol>
        {error("steps") && (
          <p className="text-xs font-medium text-red-600" data-testid="escalation-error-steps">
            {error("steps")}
          </p>
        )}
        <Button variant="secondary" size="sm" disabled={steps.length >= POLICY_LIMITS.steps} onClick={() => onChange({ steps: [...steps, newStep()] })} data-testid="escalation-add-step">
          <PlusIcon className="size-4" />
          {t("escalation.form.addStep")}
        </Button>
        <div className="grid gap-4 border-t border-slate-100 pt-4 sm:grid-cols-2">
          <Field label={t("escalation.form.repeatEvery")} optionalLabel={t("common.optional")} hint={t("escalation.form.repeatEveryHint")} error={error("repeatEvery")} errorTestId="escalation-error-repeat-every">
            {(id) => (
              <WholeNumberInput
                id={id}
                range={POLICY_LIMITS.repeatEveryMinutes}
                value={draft.repeatEvery}
                onChange={(repeatEvery) => onChange({ repeatEvery })}
                invalid={error("repeatEvery") !== undefined}
                testId="escalation-repeat-every"
              />
            )}
          </Field>
          <Field label={t("escalation.form.repeatLimit")} hint={t("escalation.form.repeatLimitHint", { max: POLICY_LIMITS.repeatLimit[1] })} error={error("repeatLimit")} errorTestId="escalation-error-repeat-limit">
            {(id) => (
              <WholeNumberInput
                id={id}
                range={POLICY_LIMITS.repeatLimit}
                disabled={!repeating}
                value={draft.repeatLimit}
                onChange={(repeatLimit) => onChange({ repeatLimit })}
                invalid={error("repeatLimit") !== undefined}
                testId="escalation-repeat-limit"
              />
            )}
          </Field>
        </div>
      </div>
    </Card>
  );
}

/** A whole number within the policy's limits (the text as typed: the form's checks read it). */
function WholeNumberInput({ id, range, value, onChange, invalid, disabled, testId }: { id: string; range: readonly [number, number]; value: string; onChange: (value: string) => void; invalid: boolean; disabled?: boolean; testId: string }) {
  return (
    <TextInput
      id={id}
      type="number"
      inputMode="numeric"
      min={range[0]}
      max={range[1]}
      step={1}
      disabled={disabled}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-invalid={invalid ? true : undefined}
      data-testid={testId}
    />
  );
}
