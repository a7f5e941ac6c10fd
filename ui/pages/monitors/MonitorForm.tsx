import { useId, useRef, useState, type FormEvent, type InputHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import type { ParseKeys } from "i18next";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import {
  DNS_RECORD_TYPES,
  LIMITS,
  MONITOR_METHODS,
  type DnsRecordType,
  type MonitorInput,
  type MonitorMethod,
  type PublicMonitor,
} from "../../api/monitors";
import { Button, ButtonLink } from "../../components/Button";
import { Card } from "../../components/Card";
import { Field, FormMessage, SelectInput, TextInput, Toggle } from "../../components/form";
import { PlusIcon } from "../../components/icons";
import {
  FIELD_ORDER,
  addTags,
  hasRetries,
  hasTimeout,
  headerRow,
  methodHasBody,
  serverErrorField,
  settingsOf,
  toMonitorInput,
  validateMonitorForm,
  withType,
  type FormErrors,
  type MonitorFormValues,
  type TextKey,
} from "./formModel";
import { INVALID, Section, TagInput, TypeChooser } from "./formParts";
import { GroupRuleField, ParentSelect } from "./GroupFields";
import { HttpAssertions } from "./HttpAssertions";
import { IntervalInput } from "./IntervalInput";
import { withSchedule } from "./intervals";
import { DependsOnField } from "./DependsOnField";
import { PingFields } from "./PingFields";
import { SettingsFields } from "./SettingsFields";
import { isSettingsType } from "../../../server/monitors/public";

interface MonitorFormProps {
  initial: MonitorFormValues;
  mode: "create" | "edit";
  /** Sends the payload; a rejection is shown in the form. */
  onSave: (input: MonitorInput) => Promise<PublicMonitor>;
  /** Called after a successful save (toast, navigation). */
  onSaved: (monitor: PublicMonitor) => void;
  cancelHref: string;
  /** The monitor edited: it cannot depend on itself, and its own group and those inside it are not offered as its group. */
  monitorId?: number;
}

const TEXTAREA =
  "block w-full rounded-lg border-0 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 " +
  "placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-500 focus:outline-none";

/** The create and edit form of a monitor: checks every field of the chosen type as the server does before sending. */
export function MonitorForm({ initial, mode, onSave, onSaved, cancelHref, monitorId }: MonitorFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<MonitorFormValues>(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [submitted, setSubmitted] = useState(false); // after a first attempt, problems update as you type
  const [serverError, setServerError] = useState("");
  /** A refusal of the server about one field: its sentence under that field until the field changes. */
  const [serverProblem, setServerProblem] = useState<{ field: string; message: string } | null>(null);
  const [tagError, setTagError] = useState<ParseKeys | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const typeHeading = useId();

  const update = (patch: Partial<MonitorFormValues>) => {
    const next = { ...values, ...patch };
    setValues(next);
    if (submitted) setErrors(validateMonitorForm(next));
    if (serverProblem && (serverProblem.field in patch || "type" in patch)) {
      setServerProblem(null);
      setServerError("");
    }
  };
  const text = (key: TextKey) => (e: { target: { value: string } }) => update({ [key]: e.target.value });
  const setHeader = (key: number, patch: { name?: string; value?: string }) =>
    update({ headers: values.headers.map((h) => (h.key === key ? { ...h, ...patch } : h)) });

  const problem = (field: string) => (errors[field] ? t(errors[field]) : serverProblem?.field === field ? serverProblem.message : undefined);
  const invalid = (field: string) => (problem(field) ? { "aria-invalid": true as const, className: INVALID } : {});
  /** A field's input (for `<Field>`): bound to its value and change, marked when the field has a problem. */
  const textInput =
    (name: TextKey, { className = "", ...props }: InputHTMLAttributes<HTMLInputElement> = {}) =>
    (id: string) => (
      <TextInput
        id={id}
        name={name}
        autoComplete="off"
        spellCheck={false}
        {...props}
        value={values[name]}
        onChange={text(name)}
        aria-invalid={problem(name) ? true : undefined}
        className={`${className} ${problem(name) ? INVALID : ""}`}
      />
    );
  /** A whole number from `min` to `max` (the server's limits). */
  const numberInput = (name: TextKey, min: number, max: number, props: InputHTMLAttributes<HTMLInputElement> = {}) =>
    textInput(name, { type: "number", min, max, step: 1, ...props });

  const commitTags = (typed: string, rest = "") => {
    const added = addTags(values.tags, typed);
    if (added.error) {
      setTagError(added.error);
      update({ tagDraft: typed + (rest ? `,${rest}` : "") });
      return false;
    }
    setTagError(null);
    update({ tags: added.tags, tagDraft: rest.trimStart() });
    return true;
  };

  const focusField = (field: string) => {
    const [name, rowKey, part] = field.split(".");
    const selector =
      name === "headers" && rowKey ? `[data-header="${rowKey}-${part}"]` : name === "type" ? `input[name="type"]:checked` : `[name="${name}"]`;
    formRef.current?.querySelector<HTMLElement>(selector)?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setServerError("");
    setServerProblem(null);
    const found = validateMonitorForm(values);
    setErrors(found);
    const keys = Object.keys(found);
    if (keys.length > 0) {
      // Focus the first field in error, in the order of the form.
      const rank = (key: string) => FIELD_ORDER.indexOf(key.split(".")[0]!);
      focusField([...keys].sort((a, b) => rank(a) - rank(b))[0]!);
      return;
    }
    setSaving(true);
    try {
      const monitor = await onSave(toMonitorInput(values));
      onSaved(monitor);
    } catch (err) {
      const message = errorMessage(err, t("monitors.saveFailed"));
      const field = err instanceof ApiError ? serverErrorField(err.code, values.type) : null;
      if (field) {
        setServerProblem({ field, message });
        setServerError(t("monitors.form.fixErrors"));
        setTimeout(() => focusField(field));
      } else {
        setServerError(message);
      }
      setSaving(false);
    }
  };

  const type = values.type;
  const hasBody = methodHasBody(values.method);
  const clientProblems = Object.keys(errors).length > 0;
  const tagProblem = tagError ? t(tagError) : problem("tags");
  const targetTitle = {
    http: t("monitors.form.basics"),
    tcp: t("monitors.form.targetTcp"),
    dns: t("monitors.form.targetDns"),
    push: t("monitors.form.targetPush"),
    ping: t("monitors.form.targetPing"),
    group: t("monitors.group.settings"),
  }[type as "http"] ?? t("monitors.form.targetSettings");

  return (
    <Card>
      <form ref={formRef} onSubmit={submit} noValidate data-testid="monitor-form" data-type={type}>
        <Section title={t("monitors.form.type")} headingId={typeHeading}>
          <TypeChooser value={type} labelledBy={typeHeading} onChange={(next) => update(withType(values, next, mode === "create"))} />
        </Section>

        <Section title={t("monitors.form.general")}>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label={t("monitors.form.name")} error={problem("name")} errorTestId="monitor-error-name">
              {textInput("name", { required: true, maxLength: 200, spellCheck: undefined, placeholder: t("monitors.form.namePlaceholder") })}
            </Field>
            <Field label={t("monitors.form.tags")} optionalLabel={t("common.optional")} hint={t("monitors.form.tagsHint")} error={tagProblem} errorTestId="monitor-error-tags">
              {(id) => (
                <TagInput
                  id={id}
                  tags={values.tags}
                  draft={values.tagDraft}
                  invalid={Boolean(tagProblem)}
                  onCommit={commitTags}
                  onDraft={(draft) => {
                    setTagError(null);
                    update({ tagDraft: draft });
                  }}
                  onRemove={(index) => {
                    setTagError(null);
                    update({ tags: values.tags.filter((_, i) => i !== index) });
                  }}
                />
              )}
            </Field>
            <ParentSelect value={values.parentId} self={monitorId} error={problem("parentId")} onChange={(parentId) => update({ parentId })} />
          </div>
        </Section>

        <Section title={targetTitle} testId={`monitor-target-${type}`}>
          {type === "http" && (
            <div className="grid gap-5 sm:grid-cols-[10rem_1fr]">
              <Field label={t("monitors.form.method")}>
                {(id) => (
                  <SelectInput id={id} name="method" value={values.method} onChange={(e) => update({ method: e.target.value as MonitorMethod })}>
                    {MONITOR_METHODS.map((m) => (
                      <option key={m} value={m}>
                        {m}
                      </option>
                    ))}
                  </SelectInput>
                )}
              </Field>
              <Field label={t("monitors.form.url")} hint={t("monitors.form.urlHint")} error={problem("url")} errorTestId="monitor-error-url">
                {textInput("url", { type: "url", inputMode: "url", required: true, placeholder: "https://example.com/health" })}
              </Field>
            </div>
          )}

          {type === "tcp" && (
            <div className="grid gap-5 sm:grid-cols-[1fr_10rem]">
              <Field label={t("monitors.form.host")} hint={t("monitors.form.hostHint")} error={problem("host")} errorTestId="monitor-error-host">
                {textInput("host", { placeholder: "db.example.com" })}
              </Field>
              <Field label={t("monitors.form.port")} hint={t("monitors.form.portHint")} error={problem("port")} errorTestId="monitor-error-port">
                {numberInput("port", 1, 65535, { placeholder: "5432" })}
              </Field>
            </div>
          )}

          {type === "dns" && (
            <>
              <div className="grid gap-5 sm:grid-cols-[1fr_10rem]">
                <Field label={t("monitors.form.dnsName")} hint={t("monitors.form.dnsNameHint")} error={problem("host")} errorTestId="monitor-error-host">
                  {textInput("host", { placeholder: "example.com" })}
                </Field>
                <Field label={t("monitors.form.dnsRecordType")}>
                  {(id) => (
                    <SelectInput id={id} name="dnsRecordType" value={values.dnsRecordType} onChange={(e) => update({ dnsRecordType: e.target.value as DnsRecordType })}>
                      {DNS_RECORD_TYPES.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </SelectInput>
                  )}
                </Field>
              </div>
              <div className="grid gap-5 sm:grid-cols-2">
                <Field
                  label={t("monitors.form.dnsResolver")}
                  optionalLabel={t("common.optional")}
                  hint={t("monitors.form.dnsResolverHint")}
                  error={problem("dnsResolver")}
                  errorTestId="monitor-error-dnsResolver"
                >
                  {textInput("dnsResolver", { placeholder: "9.9.9.9" })}
                </Field>
                <Field
                  label={t("monitors.form.dnsExpected")}
                  optionalLabel={t("common.optional")}
                  hint={t("monitors.form.dnsExpectedHint")}
                  error={problem("dnsExpected")}
                  errorTestId="monitor-error-dnsExpected"
                >
                  {textInput("dnsExpected")}
                </Field>
              </div>
            </>
          )}

          {type === "ping" && (
            <PingFields values={values} update={update} problem={problem} hostInput={textInput("host", { placeholder: "192.0.2.10" })} numberInput={numberInput} />
          )}

          {type === "group" && <GroupRuleField value={values.groupRule} onChange={(groupRule) => update({ groupRule })} />}

          {isSettingsType(type) && (
            <SettingsFields type={type} values={settingsOf(values, type)} problem={problem} onChange={(next) => update({ settings: { ...values.settings, [type]: next } })} />
          )}

          {type === "push" && (
            <p data-testid="monitor-push-intro" className="rounded-lg bg-indigo-50/70 px-4 py-3 text-sm text-indigo-900 ring-1 ring-inset ring-indigo-100">
              {t("monitors.form.pushIntro")}
            </p>
          )}
        </Section>

        <Section title={t("monitors.form.schedule")}>
          <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            <Field
              label={type === "push" ? t("monitors.form.pushInterval") : t("monitors.form.interval")}
              hint={type === "push" ? t("monitors.form.pushIntervalHint") : t("monitors.form.intervalHint")}
              error={problem("interval")}
              errorTestId="monitor-error-interval"
            >
              {(id) => (
                <IntervalInput
                  id={id}
                  name="interval"
                  value={values.interval}
                  unit={values.intervalUnit}
                  invalid={Boolean(problem("interval"))}
                  onChange={(interval, intervalUnit) => update(withSchedule(values, { interval, intervalUnit }))}
                />
              )}
            </Field>
            {type !== "push" && (
              <Field
                label={t("monitors.form.retryInterval")}
                optionalLabel={t("common.optional")}
                hint={t("monitors.form.retryIntervalHint")}
                error={problem("retryInterval")}
                errorTestId="monitor-error-retryInterval"
              >
                {(id) => (
                  <IntervalInput
                    id={id}
                    name="retryInterval"
                    value={values.retryInterval}
                    unit={values.retryIntervalUnit}
                    invalid={Boolean(problem("retryInterval"))}
                    onChange={(retryInterval, retryIntervalUnit) => update(withSchedule(values, { retryInterval, retryIntervalUnit }))}
                  />
                )}
              </Field>
            )}
            {hasTimeout(type) && (
              <Field
                label={t("monitors.form.timeout")}
                hint={t(type === "ping" ? "monitors.form.pingTimeoutHint" : "monitors.form.timeoutHint")}
                error={problem("timeout")}
                errorTestId="monitor-error-timeout"
              >
                {numberInput("timeout", LIMITS.minTimeout, LIMITS.maxTimeout, { step: "any", inputMode: "decimal" })}
              </Field>
            )}
            {type === "push" && (
              <Field label={t("monitors.form.pushGrace")} hint={t("monitors.form.pushGraceHint")} error={problem("pushGrace")} errorTestId="monitor-error-pushGrace">
                {numberInput("pushGrace", 0, LIMITS.maxPushGrace)}
              </Field>
            )}
            {type === "http" && (
              <Field
                label={t("monitors.form.expectedStatus")}
                hint={t("monitors.form.expectedStatusHint")}
                error={problem("expectedStatus")}
                errorTestId="monitor-error-expectedStatus"
              >
                {textInput("expectedStatus")}
              </Field>
            )}
            {hasRetries(type) && (
              <Field label={t("monitors.form.retries")} hint={t("monitors.form.retriesHint")} error={problem("retries")} errorTestId="monitor-error-retries">
                {numberInput("retries", 0, LIMITS.maxRetries)}
              </Field>
            )}
            <Field label={t("monitors.form.objective")} hint={t("monitors.form.objectiveHint")} error={problem("objective")} errorTestId="monitor-error-objective">
              {textInput("objective", { type: "number", min: LIMITS.minObjective, max: LIMITS.maxObjective, step: "any", inputMode: "decimal", placeholder: "99.9" })}
            </Field>
            <Field label={t("monitors.form.objectiveDays")} hint={t("monitors.form.objectiveDaysHint")} error={problem("objectiveDays")} errorTestId="monitor-error-objectiveDays">
              {numberInput("objectiveDays", LIMITS.minObjectiveDays, LIMITS.maxObjectiveDays)}
            </Field>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            {type === "http" && (
              <Toggle
                name="followRedirects"
                label={t("monitors.form.followRedirects")}
                hint={t("monitors.form.followRedirectsHint")}
                checked={values.followRedirects}
                onChange={(v) => update({ followRedirects: v })}
              />
            )}
            <Toggle name="active" label={t("monitors.form.active")} hint={t("monitors.form.activeHint")} checked={values.active} onChange={(v) => update({ active: v })} />
            <Toggle
              name="upsideDown"
              label={t("monitors.form.upsideDown")}
              hint={t(type === "push" ? "monitors.form.upsideDownPushHint" : "monitors.form.upsideDownHint")}
              checked={values.upsideDown}
              onChange={(v) => update({ upsideDown: v })}
            />
          </div>
        </Section>

        <div className="border-t border-slate-100 px-5 py-5 sm:px-6">
          <DependsOnField monitorId={monitorId} selected={values.dependsOn} onChange={(dependsOn) => update({ dependsOn })} error={problem("dependsOn")} />
        </div>

        {type === "http" && (
          <Section title={t("monitors.form.request")}>
            <div className="space-y-2" data-testid="monitor-headers">
              <div className="flex items-baseline justify-between gap-3">
                <div>
                  <p className="text-sm font-medium text-slate-700">{t("monitors.form.headers")}</p>
                  <p className="text-xs text-slate-500">{t("monitors.form.headersHint")}</p>
                </div>
                <Button variant="secondary" size="sm" onClick={() => update({ headers: [...values.headers, headerRow()] })} data-testid="monitor-header-add">
                  <PlusIcon className="size-4" />
                  {t("monitors.form.addHeader")}
                </Button>
              </div>
              {values.headers.length === 0 && <p className="text-sm text-slate-400">{t("monitors.form.noHeaders")}</p>}
              {errors.headers && <p className="text-xs font-medium text-red-600">{t(errors.headers)}</p>}
              {values.headers.map((h, index) => {
                const nameError = problem(`headers.${h.key}.name`);
                const valueError = problem(`headers.${h.key}.value`);
                return (
                  <div key={h.key} className="grid grid-cols-[1fr_1.6fr_auto] items-start gap-2" data-testid={`monitor-header-${index}`}>
                    <div>
                      <TextInput
                        aria-label={t("monitors.form.headerName")}
                        placeholder={t("monitors.form.headerName")}
                        data-header={`${h.key}-name`}
                        name={`header-name-${index}`}
                        autoComplete="off"
                        spellCheck={false}
                        value={h.name}
                        onChange={(e) => setHeader(h.key, { name: e.target.value })}
                        {...invalid(`headers.${h.key}.name`)}
                      />
                      {nameError && <p className="mt-1 text-xs font-medium text-red-600">{nameError}</p>}
                    </div>
                    <div>
                      <TextInput
                        aria-label={t("monitors.form.headerValue")}
                        placeholder={t("monitors.form.headerValue")}
                        data-header={`${h.key}-value`}
                        name={`header-value-${index}`}
                        autoComplete="off"
                        spellCheck={false}
                        value={h.value}
                        onChange={(e) => setHeader(h.key, { value: e.target.value })}
                        {...invalid(`headers.${h.key}.value`)}
                      />
                      {valueError && <p className="mt-1 text-xs font-medium text-red-600">{valueError}</p>}
                    </div>
                    <Button
                      variant="dangerGhost"
                      size="sm"
                      className="mt-0.5"
                      aria-label={t("monitors.form.removeHeader")}
                      title={t("monitors.form.removeHeader")}
                      onClick={() => update({ headers: values.headers.filter((x) => x.key !== h.key) })}
                      data-testid={`monitor-header-remove-${index}`}
                    >
                      ✕
                    </Button>
                  </div>
                );
              })}
            </div>
            {hasBody && (
              <Field
                label={t("monitors.form.body")}
                optionalLabel={t("common.optional")}
                hint={t("monitors.form.bodyHint", { method: values.method })}
                error={problem("body")}
                errorTestId="monitor-error-body"
              >
                {(id) => <textarea id={id} name="body" rows={5} spellCheck={false} className={`${TEXTAREA} ${problem("body") ? INVALID : ""}`} value={values.body} onChange={text("body")} />}
              </Field>
            )}
          </Section>
        )}

        {type === "http" && (
          <Section title={t("monitors.form.assertions")} hint={t("monitors.form.assertionsHint")} testId="monitor-assertions">
            <HttpAssertions values={values} update={update} problem={problem} textInput={textInput} numberInput={numberInput} />
          </Section>
        )}

        <div className="space-y-4 border-t border-slate-100 px-5 py-5 sm:px-6">
          {clientProblems && <FormMessage kind="error">{t("monitors.form.fixErrors")}</FormMessage>}
          {!clientProblems && serverError && <FormMessage kind="error">{serverError}</FormMessage>}
          <div className="flex justify-end gap-3">
            <ButtonLink href={cancelHref} variant="secondary" data-testid="monitor-cancel">
              {t("common.cancel")}
            </ButtonLink>
            <Button type="submit" busy={saving} data-testid="monitor-submit">
              {saving ? t("common.saving") : mode === "create" ? t("monitors.form.submitCreate") : t("monitors.form.submitSave")}
            </Button>
          </div>
        </div>
      </form>
    </Card>
  );
}
