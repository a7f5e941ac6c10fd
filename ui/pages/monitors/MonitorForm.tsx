import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors";
import { MONITOR_METHODS, type MonitorInput, type MonitorMethod, type PublicMonitor } from "../../api/monitors";
import { Button, ButtonLink } from "../../components/Button";
import { Card } from "../../components/Card";
import { Field, FormMessage, SelectInput, TextInput, Toggle } from "../../components/form";
import { PlusIcon } from "../../components/icons";
import {
  FIELD_ORDER,
  headerRow,
  methodHasBody,
  toMonitorInput,
  validateMonitorForm,
  type FormErrors,
  type MonitorFormValues,
} from "./model";

interface MonitorFormProps {
  initial: MonitorFormValues;
  mode: "create" | "edit";
  /** Sends the payload; a rejection is shown in the form. */
  onSave: (input: Required<MonitorInput>) => Promise<PublicMonitor>;
  /** Called after a successful save (toast, navigation). */
  onSaved: (monitor: PublicMonitor) => void;
  cancelHref: string;
}

const TEXTAREA =
  "block w-full rounded-lg border-0 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 " +
  "placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-500 focus:outline-none";
const INVALID = "ring-red-400! focus:ring-red-500!";

function Section({ title, children }: { title: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className="space-y-5 border-t border-slate-100 px-5 py-6 first:border-t-0 sm:px-6">
      <h2 id={id} className="text-sm font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </div>
  );
}

/** The create and edit form of a monitor: checks every field as the server does before sending anything. */
export function MonitorForm({ initial, mode, onSave, onSaved, cancelHref }: MonitorFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<MonitorFormValues>(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [submitted, setSubmitted] = useState(false); // after a first attempt, problems update as you type
  const [serverError, setServerError] = useState("");
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const update = (patch: Partial<MonitorFormValues>) => {
    const next = { ...values, ...patch };
    setValues(next);
    if (submitted) setErrors(validateMonitorForm(next));
  };
  const text = (key: "name" | "url" | "interval" | "timeout" | "expectedStatus" | "retries" | "body") => (e: { target: { value: string } }) =>
    update({ [key]: e.target.value });
  const setHeader = (key: number, patch: { name?: string; value?: string }) =>
    update({ headers: values.headers.map((h) => (h.key === key ? { ...h, ...patch } : h)) });

  const problem = (field: string) => (errors[field] ? t(errors[field]) : undefined);
  const invalid = (field: string) => (errors[field] ? { "aria-invalid": true as const, className: INVALID } : {});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setServerError("");
    const found = validateMonitorForm(values);
    setErrors(found);
    const keys = Object.keys(found);
    if (keys.length > 0) {
      // Focus the first field in error, in the order of the form.
      const first = [...keys].sort((a, b) => FIELD_ORDER.indexOf(a.split(".")[0]) - FIELD_ORDER.indexOf(b.split(".")[0]))[0];
      const [field, rowKey, part] = first.split(".");
      const selector = field === "headers" && rowKey ? `[data-header="${rowKey}-${part}"]` : `[name="${field}"]`;
      formRef.current?.querySelector<HTMLElement>(selector)?.focus();
      return;
    }
    setSaving(true);
    try {
      const monitor = await onSave(toMonitorInput(values));
      onSaved(monitor);
    } catch (err) {
      setServerError(errorMessage(err, t("monitors.saveFailed")));
      setSaving(false);
    }
  };

  const hasBody = methodHasBody(values.method);
  const clientProblems = Object.keys(errors).length > 0;

  return (
    <Card>
      <form ref={formRef} onSubmit={submit} noValidate data-testid="monitor-form">
        <Section title={t("monitors.form.basics")}>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label={t("monitors.form.name")} error={problem("name")} errorTestId="monitor-error-name">
              {(id) => (
                <TextInput
                  id={id}
                  name="name"
                  autoComplete="off"
                  required
                  maxLength={200}
                  placeholder={t("monitors.form.namePlaceholder")}
                  value={values.name}
                  onChange={text("name")}
                  {...invalid("name")}
                />
              )}
            </Field>
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
          </div>
          <Field label={t("monitors.form.url")} hint={t("monitors.form.urlHint")} error={problem("url")} errorTestId="monitor-error-url">
            {(id) => (
              <TextInput
                id={id}
                name="url"
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                required
                placeholder="https://example.com/health"
                value={values.url}
                onChange={text("url")}
                {...invalid("url")}
              />
            )}
          </Field>
        </Section>

        <Section title={t("monitors.form.schedule")}>
          <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            <Field label={t("monitors.form.interval")} hint={t("monitors.form.intervalHint")} error={problem("interval")} errorTestId="monitor-error-interval">
              {(id) => <TextInput id={id} name="interval" type="number" min={1} max={1440} step={1} value={values.interval} onChange={text("interval")} {...invalid("interval")} />}
            </Field>
            <Field label={t("monitors.form.timeout")} hint={t("monitors.form.timeoutHint")} error={problem("timeout")} errorTestId="monitor-error-timeout">
              {(id) => <TextInput id={id} name="timeout" type="number" min={1} max={60} step={1} value={values.timeout} onChange={text("timeout")} {...invalid("timeout")} />}
            </Field>
            <Field
              label={t("monitors.form.expectedStatus")}
              hint={t("monitors.form.expectedStatusHint")}
              error={problem("expectedStatus")}
              errorTestId="monitor-error-expectedStatus"
            >
              {(id) => (
                <TextInput id={id} name="expectedStatus" autoComplete="off" spellCheck={false} value={values.expectedStatus} onChange={text("expectedStatus")} {...invalid("expectedStatus")} />
              )}
            </Field>
            <Field label={t("monitors.form.retries")} hint={t("monitors.form.retriesHint")} error={problem("retries")} errorTestId="monitor-error-retries">
              {(id) => <TextInput id={id} name="retries" type="number" min={0} max={10} step={1} value={values.retries} onChange={text("retries")} {...invalid("retries")} />}
            </Field>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <Toggle
              name="followRedirects"
              label={t("monitors.form.followRedirects")}
              hint={t("monitors.form.followRedirectsHint")}
              checked={values.followRedirects}
              onChange={(v) => update({ followRedirects: v })}
            />
            <Toggle name="active" label={t("monitors.form.active")} hint={t("monitors.form.activeHint")} checked={values.active} onChange={(v) => update({ active: v })} />
          </div>
        </Section>

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
            <Field label={t("monitors.form.body")} optionalLabel={t("common.optional")} hint={t("monitors.form.bodyHint", { method: values.method })} error={problem("body")}>
              {(id) => <textarea id={id} name="body" rows={5} spellCheck={false} className={`${TEXTAREA} ${errors.body ? INVALID : ""}`} value={values.body} onChange={text("body")} />}
            </Field>
          )}
        </Section>

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
