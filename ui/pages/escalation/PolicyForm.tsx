// Adding or editing an escalation policy, in the escalation tab: its name, whether it is the default, its steps and
// repeats, and the monitors, groups and tags that follow it. Checked here first by the API's limits (red text at the
// field, no request while anything is wrong), then by the server, whose refusals (another default, a target that
// follows another policy) are shown at the field they concern and above the buttons.
//
// data-testids: `escalation-form`, `escalation-name`, `escalation-default`, `escalation-error-{name|default|tags|targets}`,
//   the steps (StepsEditor.tsx), the pickers `escalation-monitors` / `escalation-groups` (components/TargetPicker.tsx),
//   `escalation-tags`, `escalation-form-error` (the server's answer), `escalation-fix-errors`, `escalation-cancel`,
//   `escalation-save`.
import { useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { ApiError } from "../../api/client";
import { createPolicy, POLICY_LIMITS, updatePolicy, type EscalationPolicy, type PolicyConflict } from "../../api/escalation";
import { errorMessage } from "../../api/errors";
import type { MonitorName } from "../../api/monitors";
import type { PublicChannel } from "../../api/notifications";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { Field, FormMessage, TextInput, Toggle } from "../../components/form";
import { TargetPicker, type PickerItem } from "../../components/TargetPicker";
import { TagInput } from "../monitors/formParts";
import { addPolicyTags, draftOf, emptyDraft, inputOf, validateDraft, type PolicyDraft } from "./model";
import type { PersonOption, ScheduleOption } from "./parts";
import { StepsEditor } from "./StepsEditor";

/** The numbers the error texts name. */
const LIMIT_VALUES = {
  nameMax: POLICY_LIMITS.name,
  stepsMax: POLICY_LIMITS.steps,
  channelsMax: POLICY_LIMITS.recipientsPerStep,
  minutesMax: POLICY_LIMITS.waitMinutes[1],
  repeatsMax: POLICY_LIMITS.repeatLimit[1],
  targetsMax: POLICY_LIMITS.targets,
};

interface PolicyFormProps {
  policy: EscalationPolicy | null;
  channels: PublicChannel[];
  people: PersonOption[];
  schedules: ScheduleOption[];
  monitors: MonitorName[];
  onCancel: () => void;
  onSaved: (policy: EscalationPolicy) => void;
}

export function PolicyForm({ policy, channels, people, schedules, monitors, onCancel, onSaved }: PolicyFormProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<PolicyDraft>(() => (policy ? draftOf(policy) : emptyDraft()));
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState("");
  // The server's refusal, at its field until the form changes.
  const [refused, setRefused] = useState<Partial<Record<string, string>>>({});
  const [tagError, setTagError] = useState<string | null>(null);
  const errors = useMemo(() => validateDraft(draft), [draft]);
  const update = (patch: Partial<PolicyDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setRefused({}); // a refusal is about what was sent: a change answers it
  };
  const error = (field: string) => refused[field] ?? (tried && errors[field] ? t(errors[field]!, LIMIT_VALUES) : undefined);

  const byId = useMemo(() => new Map(monitors.map((m) => [m.id, m])), [monitors]);
  // Groups in their own picker; a group named as a monitor (by the API) stays in the monitor picker.
  const items = useMemo(() => {
    const item = (m: MonitorName): PickerItem => ({ id: m.id, name: m.name, detail: m.type === "group" ? t("monitors.types.group") : m.target });
    return {
      monitors: monitors.filter((m) => m.type !== "group" || draft.monitorIds.includes(m.id)).map(item),
      groups: monitors.filter((m) => m.type === "group").map(item),
    };
  }, [monitors, draft.monitorIds, t]);

  /** The server's 409 in the reader's language, at the field it concerns. */
  const conflictText = (c: PolicyConflict): [string, string] => {
    if (c.code === "DEFAULT_POLICY_TAKEN") return ["isDefault", t("escalation.form.errors.defaultTaken", { policy: c.policy })];
    const field = { monitor: "monitors", group: "groups", tag: "tags" }[c.targetKind];
    const target = c.targetKind === "tag" ? c.targetRef : (byId.get(Number(c.targetRef))?.name ?? `#${c.targetRef}`);
    return [field, t("escalation.form.errors.targetTaken", { target, policy: c.policy })];
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    setFailure("");
    setRefused({});
    if (Object.keys(errors).length) return;
    setSaving(true);
    try {
      const input = inputOf(draft);
      const reply = policy ? await updatePolicy(policy.id, input) : await createPolicy(input);
      toast.success(t(policy ? "escalation.updated" : "escalation.created"));
      onSaved(reply.policy);
    } catch (err) {
      const code = err instanceof ApiError ? err.code : undefined;
      if (err instanceof ApiError && (code === "DEFAULT_POLICY_TAKEN" || code === "TARGET_HAS_POLICY")) {
        const [field, text] = conflictText({ ...err.body, code } as PolicyConflict);
        setRefused({ [field]: text });
        setFailure(text);
      } else {
        const text = errorMessage(err, t("escalation.saveFailed"));
        if (code === "CHANNEL_NOT_FOUND") setRefused({ steps: text });
        setFailure(text);
      }
      setSaving(false);
    }
  };

  const commitTags = (typed: string, rest = "") => {
    const added = addPolicyTags(draft.tags, typed);
    if (added.error) {
      setTagError(t(added.error));
      update({ tagDraft: typed + (rest ? `,${rest}` : "") });
      return false;
    }
    setTagError(null);
    update({ tags: added.tags, tagDraft: rest.trimStart() });
    return true;
  };
  const tagProblem = tagError ?? error("tags");

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-6" data-testid="escalation-form">
      <Card>
        <CardHeader title={policy ? `${t("escalation.form.editTitle")}: ${policy.name}` : t("escalation.form.createTitle")} description={t("escalation.form.about")} />
        <div className="space-y-5 px-5 py-5 sm:px-6">
          <Field label={t("escalation.form.name")} error={error("name")} errorTestId="escalation-error-name">
            {(id) => (
              <TextInput
                id={id}
                autoComplete="off"
                maxLength={POLICY_LIMITS.name + 20}
                value={draft.name}
                placeholder={t("escalation.form.namePlaceholder")}
                onChange={(e) => update({ name: e.target.value })}
                aria-invalid={error("name") ? true : undefined}
                data-testid="escalation-name"
              />
            )}
          </Field>
          <div>
            <Toggle name="isDefault" label={t("escalation.form.isDefault")} hint={t("escalation.form.isDefaultHint")} checked={draft.isDefault} onChange={(isDefault) => update({ isDefault })} data-testid="escalation-default" />
            {error("isDefault") && (
              <p className="mt-1 text-xs font-medium text-red-600" data-testid="escalation-error-default">
                {error("isDefault")}
              </p>
            )}
          </div>
        </div>
      </Card>

      <StepsEditor draft={draft} channels={channels} people={people} schedules={schedules} onChange={update} error={error} />

      <TargetPicker
        prefix="escalation-monitors"
        title={t("escalation.form.monitorsTitle")}
        hint={t("escalation.form.monitorsHint")}
        selectedTitle={t("escalation.form.chosen", { count: draft.monitorIds.length })}
        noneText={t("escalation.form.noneChosen")}
        searchLabel={t("statusConfig.searchMonitors")}
        emptyText={t("statusConfig.noMonitors")}
        items={items.monitors}
        selected={draft.monitorIds}
        onChange={(monitorIds) => update({ monitorIds })}
        error={error("monitors")}
      />
      <TargetPicker
        prefix="escalation-groups"
        title={t("escalation.form.groupsTitle")}
        hint={t("escalation.form.groupsHint")}
        selectedTitle={t("escalation.form.chosen", { count: draft.groupIds.length })}
        noneText={t("escalation.form.noneChosen")}
        searchLabel={t("escalation.form.searchGroups")}
        emptyText={t("escalation.form.noGroups")}
        items={items.groups}
        selected={draft.groupIds}
        onChange={(groupIds) => update({ groupIds })}
        error={error("groups")}
      />
      <Card>
        <CardHeader title={t("escalation.form.tagsTitle")} description={t("escalation.form.tagsHint")} />
        <div className="px-5 py-5 sm:px-6">
          <Field label={t("escalation.form.tags")} optionalLabel={t("common.optional")} hint={t("escalation.form.tagsInputHint")} error={tagProblem} errorTestId="escalation-error-tags">
            {(id) => (
              <TagInput
                id={id}
                tags={draft.tags}
                draft={draft.tagDraft}
                invalid={Boolean(tagProblem)}
                onCommit={commitTags}
                onDraft={(tagDraft) => {
                  setTagError(null);
                  update({ tagDraft });
                }}
                onRemove={(index) => {
                  setTagError(null);
                  update({ tags: draft.tags.filter((_, i) => i !== index) });
                }}
                testId="escalation-tags"
              />
            )}
          </Field>
        </div>
      </Card>

      <div className="flex flex-wrap items-center justify-end gap-3">
        {error("targets") && (
          <p role="alert" className="text-sm text-red-600" data-testid="escalation-error-targets">
            {error("targets")}
          </p>
        )}
        {failure ? (
          <div data-testid="escalation-form-error" className="min-w-0">
            <FormMessage kind="error">{failure}</FormMessage>
          </div>
        ) : (
          tried &&
          Object.keys(errors).length > 0 && (
            <p role="alert" className="text-sm text-red-600" data-testid="escalation-fix-errors">
              {t("escalation.form.fixErrors")}
            </p>
          )
        )}
        <Button variant="secondary" onClick={onCancel} disabled={saving} data-testid="escalation-cancel">
          {t("common.cancel")}
        </Button>
        <Button type="submit" busy={saving} data-testid="escalation-save">
          {policy ? t("common.save") : t("escalation.form.create")}
        </Button>
      </div>
    </form>
  );
}
