// Adding or editing a channel, in a modal: name, type, enabled and only the chosen type's fields, each with where to
// find it, and its quiet hours (off by default). Checked here first (spec §5, §8: red text under the field, no request
// while anything is wrong), then by the server, whose errors are shown too. The team's channels (/notifications) and a
// person's own contact channels (/profile, `scope="mine"`: a push channel there reaches their own devices) alike.
//
// data-testids: `channel-form` (the form), `channel-field-{name|type|enabled|apiKey|from|to|url|botToken|chatId|secret}`,
//   `channel-error-{field}` (a field's problem), `channel-form-error` (the server's answer), `channel-save`,
//   `channel-cancel`, `channel-quiet…` (QuietHours.tsx), `channel-push-own` (a personal push channel's note); the modal
//   is `form-dialog`.
import { useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { createMyChannel, updateMyChannel } from "../../api/contacts";
import { CHANNEL_TYPE_LIST, createChannel, updateChannel, type ChannelInput, type PublicChannel } from "../../api/notifications";
import { Button } from "../../components/Button";
import { Field, FormMessage, SelectInput, TextInput, Toggle } from "../../components/form";
import {
  changeType,
  emptyChannelForm,
  fieldOfErrorCode,
  fieldsOf,
  formFromChannel,
  isKeptSecret,
  NAME_MAX,
  PLACEHOLDERS,
  toChannelInput,
  validateChannelForm,
  type ChannelFormErrors,
  type ChannelFormValues,
  type FieldSpec,
} from "./channelDraft";
import { FormDialog } from "./parts";
import { ManagedWarning } from "../../components/Managed";
import { PushRecipientsField } from "./PushRecipients";
import { QuietHoursFields } from "./QuietHours";
import { quietDraft, quietErrors, toQuietHours, type QuietDraft } from "./quietDraft";

/** Whose channels the form saves: the team's, or the signed-in person's own. */
export type ChannelScope = "team" | "mine";

const save = {
  team: { create: createChannel, update: updateChannel },
  mine: { create: createMyChannel, update: updateMyChannel },
} satisfies Record<ChannelScope, { create: (input: ChannelInput) => Promise<unknown>; update: (id: number, input: Partial<ChannelInput>) => Promise<unknown> }>;

interface ChannelFormDialogProps {
  /** null: closed; "new": adding; a channel: editing it. */
  target: PublicChannel | "new" | null;
  onClose: () => void;
  onSaved: (channel: PublicChannel, created: boolean) => void;
  scope?: ChannelScope;
}

export function ChannelFormDialog({ target, onClose, onSaved, scope = "team" }: ChannelFormDialogProps) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const editing = target !== null && target !== "new" ? target : null;
  return (
    <FormDialog
      open={target !== null}
      title={editing ? `${t("notifications.channelForm.editTitle")}: ${editing.name}` : t("notifications.channelForm.createTitle")}
      busy={saving}
      onClose={onClose}
    >
      {editing && scope === "team" && (
        <div className="px-5 pt-5 sm:px-6">
          <ManagedWarning what="channel" id={editing.id} />
        </div>
      )}
      {target !== null && <ChannelForm key={editing?.id ?? "new"} channel={editing} scope={scope} onCancel={onClose} onSaved={onSaved} onSaving={setSaving} />}
    </FormDialog>
  );
}

interface ChannelFormProps {
  channel: PublicChannel | null;
  scope: ChannelScope;
  onCancel: () => void;
  onSaved: (c: PublicChannel, created: boolean) => void;
  onSaving: (busy: boolean) => void;
}

function ChannelForm({ channel, scope, onCancel, onSaved, onSaving }: ChannelFormProps) {
  const { t } = useTranslation();
  const personal = scope === "mine";
  const original = useMemo(() => (channel ? formFromChannel(channel) : undefined), [channel]);
  const [values, setValues] = useState<ChannelFormValues>(() => original ?? emptyChannelForm());
  const [quiet, setQuiet] = useState<QuietDraft>(() => quietDraft(channel?.quietHours));
  const [errors, setErrors] = useState<ChannelFormErrors>({});
  const [serverError, setServerError] = useState("");
  const [saving, setSaving] = useState(false);
  const [submitted, setSubmitted] = useState(false);

  // After a first submit, problems follow the typing (and disappear once fixed).
  const update = (next: ChannelFormValues) => {
    setValues(next);
    if (submitted) setErrors(validateChannelForm(next, original, { personal }));
  };
  const quietProblems = submitted ? quietErrors(quiet) : {};

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setServerError("");
    const problems = validateChannelForm(values, original, { personal });
    setErrors(problems);
    if (Object.keys(problems).length > 0 || Object.keys(quietErrors(quiet)).length > 0) return;
    setSaving(true);
    onSaving(true);
    try {
      const input = { ...toChannelInput(values, channel ? "edit" : "create", personal), quietHours: toQuietHours(quiet) };
      const reply = (channel ? await save[scope].update(channel.id, input) : await save[scope].create(input)) as { channel: PublicChannel };
      onSaving(false);
      toast.success(t(channel ? "notifications.channelUpdated" : "notifications.channelCreated"));
      onSaved(reply.channel, !channel);
    } catch (err) {
      const message = errorMessage(err, t("notifications.channelSaveFailed"));
      const field = fieldOfErrorCode(err instanceof ApiError ? err.code : undefined);
      if (field) setErrors((e) => ({ ...e, [field]: message }));
      setServerError(message);
      toast.error(`${t("notifications.channelSaveFailed")}: ${message}`);
      setSaving(false);
      onSaving(false);
    }
  };

  // A key is translated; a server message (already translated by errorMessage) is shown as it is.
  const text = (problem: string | undefined) => (problem ? (problem.startsWith("notifications.") ? t(problem as never) : problem) : undefined);
  const typeChanged = original !== undefined && values.type !== original.type;

  return (
    <form onSubmit={submit} noValidate data-testid="channel-form" className="space-y-5 p-5 sm:p-6">
      <Field label={t("notifications.channelForm.name")} error={text(errors.name)} errorTestId="channel-error-name">
        {(id) => (
          <TextInput
            id={id}
            name="name"
            autoComplete="off"
            maxLength={NAME_MAX}
            placeholder={t("notifications.channelForm.namePlaceholder")}
            value={values.name}
            onChange={(e) => update({ ...values, name: e.target.value })}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? `${id}-error` : undefined}
            data-testid="channel-field-name"
          />
        )}
      </Field>
      <Field label={t("notifications.channelForm.type")} hint={typeChanged ? t("notifications.channelForm.typeChangeHint") : undefined}>
        {(id) => (
          <SelectInput
            id={id}
            name="type"
            value={values.type}
            onChange={(e) => update(changeType(values, e.target.value as ChannelFormValues["type"], original))}
            data-testid="channel-field-type"
          >
            {CHANNEL_TYPE_LIST.map((type) => (
              <option key={type} value={type}>
                {t(`notifications.types.${type}`)}
              </option>
            ))}
          </SelectInput>
        )}
      </Field>
      {personal && values.type === "webpush" && (
        <p data-testid="channel-push-own" className="rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-800 ring-1 ring-inset ring-indigo-200">
          {t("contacts.pushOwn")}
        </p>
      )}
      {fieldsOf(values.type, personal).map((spec) => (
        <ConfigInput
          key={`${values.type}-${spec.name}`}
          spec={spec}
          values={values}
          kept={spec.secret && original !== undefined && original.type === values.type && original.fields[spec.name] !== ""}
          keptNow={isKeptSecret(spec.name, values, original)}
          error={text(errors[spec.name])}
          onChange={(value) => update({ ...values, fields: { ...values.fields, [spec.name]: value } })}
        />
      ))}
      <Toggle
        name="enabled"
        label={t("notifications.channelForm.enabled")}
        hint={t("notifications.channelForm.enabledHint")}
        checked={values.enabled}
        onChange={(enabled) => update({ ...values, enabled })}
        data-testid="channel-field-enabled"
      />
      <QuietHoursFields draft={quiet} errors={quietProblems} onChange={setQuiet} testId="channel-quiet" hint={t(personal ? "quietHours.channelHintMine" : "quietHours.hint")} />
      {serverError ? (
        <div data-testid="channel-form-error">
          <FormMessage kind="error">{serverError}</FormMessage>
        </div>
      ) : (
        submitted &&
        Object.keys(errors).length + Object.keys(quietProblems).length > 0 && (
          <p role="alert" className="text-sm text-red-600">
            {t("notifications.channelForm.fixErrors")}
          </p>
        )
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={saving} data-testid="channel-cancel">
          {t("common.cancel")}
        </Button>
        <Button type="submit" busy={saving} data-testid="channel-save">
          {saving ? t("common.saving") : channel ? t("notifications.channelForm.submitSave") : t("notifications.channelForm.submitCreate")}
        </Button>
      </div>
    </form>
  );
}

function ConfigInput({
  spec,
  values,
  kept,
  keptNow,
  error,
  onChange,
}: {
  spec: FieldSpec;
  values: ChannelFormValues;
  /** The stored channel has a (masked) value for this secret field. */
  kept: boolean;
  /** …and the field still holds it. */
  keptNow: boolean;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const help = t(`notifications.channelForm.help.${values.type}.${spec.name}` as never, { defaultValue: "" }) as string;
  const keptHint = kept ? t(spec.required ? "notifications.channelForm.secretKept" : "notifications.channelForm.secretKeptOptional") : "";
  const hint = [keptHint, help].filter(Boolean).join(" ");
  if (spec.input === "users") return <PushRecipientsField value={values.fields[spec.name]} onChange={onChange} error={error} hint={help || undefined} />;
  if (spec.input === "checkbox") {
    return (
      <Toggle
        name={spec.name}
        label={t(`notifications.channelForm.fields.${spec.name}`)}
        hint={help || undefined}
        checked={values.fields[spec.name] === "true"}
        onChange={(on) => onChange(on ? "true" : "")}
        data-testid={`channel-field-${spec.name}`}
      />
    );
  }
  if (spec.input === "select") {
    return (
      <Field label={t(`notifications.channelForm.fields.${spec.name}`)} optionalLabel={spec.required ? undefined : t("common.optional")} hint={help || undefined} error={error} errorTestId={`channel-error-${spec.name}`}>
        {(id) => (
          <SelectInput id={id} name={spec.name} value={values.fields[spec.name] || (spec.required ? spec.options?.[0] : "")} onChange={(e) => onChange(e.target.value)} data-testid={`channel-field-${spec.name}`}>
            {!spec.required && <option value="">{t("common.dash")}</option>}
            {spec.options?.map((o) => (
              <option key={o} value={o}>
                {t(`notifications.channelForm.options.${spec.name}.${o}` as never)}
              </option>
            ))}
          </SelectInput>
        )}
      </Field>
    );
  }
  return (
    <Field
      label={t(`notifications.channelForm.fields.${spec.name}`)}
      optionalLabel={spec.required ? undefined : t("common.optional")}
      hint={hint || undefined}
      error={error}
      errorTestId={`channel-error-${spec.name}`}
    >
      {(id) => (
        <TextInput
          id={id}
          name={spec.name}
          type="text"
          inputMode={spec.input === "url" ? "url" : spec.input === "email-list" ? "email" : spec.input === "number" ? "numeric" : undefined}
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="off"
          placeholder={PLACEHOLDERS[values.type]?.[spec.name]}
          value={values.fields[spec.name]}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`${spec.secret ? "font-mono" : ""} ${keptNow ? "text-slate-500" : ""}`}
          data-testid={`channel-field-${spec.name}`}
        />
      )}
    </Field>
  );
}
