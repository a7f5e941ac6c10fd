// A later type's settings in the monitor form, built from its schema (settingsModel.ts): text, secrets, multi-line
// text, numbers, toggles, selects and "Name: value" lines, labelled in the reader's language by the type's i18n.ts.
// A type this server cannot run (the browser type without Chromium) says so and how to fix it.
//
// data-testids: `monitor-setting-<key>`, `monitor-error-settings.<key>`, `monitor-type-unavailable`.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { getMonitorTypes } from "../../api/monitors";
import type { SettingsTypeName } from "../../../server/monitors/public";
import { Field, SelectInput, TextInput, Toggle } from "../../components/form";
import { isMaskedSecret, numberRange, settingFields, type SettingsValues, type SettingField } from "./settingsModel";

const TEXTAREA =
  "block w-full rounded-lg border-0 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 " +
  "placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-500 focus:outline-none";

export function SettingsFields({ type, values, onChange, problem }: {
  type: SettingsTypeName;
  values: SettingsValues;
  onChange: (values: SettingsValues) => void;
  problem: (field: string) => string | undefined;
}) {
  const { t, i18n } = useTranslation();
  const [unavailable, setUnavailable] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    getMonitorTypes().then((r) => live && setUnavailable(r.types.find((x) => x.type === type)?.unavailable ?? null), () => {});
    return () => {
      live = false;
    };
  }, [type]);
  const labels = (key: string) => {
    const base = `monitors.settingsTypes.${type}.fields.${key}`;
    return { label: t(`${base}.label` as never) as string, hint: i18n.exists(`${base}.hint`) ? (t(`${base}.hint` as never) as string) : undefined };
  };
  const optionLabel = (key: string, option: string) => {
    const k = `monitors.settingsTypes.${type}.options.${key}.${option}`;
    return i18n.exists(k) ? (t(k as never) as string) : option;
  };
  const set = (key: string, value: string | boolean) => onChange({ ...values, [key]: value });
  const fields = settingFields(type);

  const control = (f: SettingField, id: string) => {
    const value = values[f.key];
    const error = problem(`settings.${f.key}`);
    const common = { id, name: `settings.${f.key}`, "data-testid": `monitor-setting-${f.key}`, "aria-invalid": error ? (true as const) : undefined };
    switch (f.kind) {
      case "select":
        return (
          <SelectInput {...common} value={String(value ?? "")} onChange={(e) => set(f.key, e.target.value)}>
            {f.options.map((o) => (
              <option key={o} value={o}>
                {optionLabel(f.key, o)}
              </option>
            ))}
          </SelectInput>
        );
      case "textarea":
      case "lines":
      case "json":
        return <textarea {...common} rows={f.kind === "lines" ? 3 : f.kind === "json" ? 6 : 4} className={TEXTAREA} spellCheck={false} value={String(value ?? "")} onChange={(e) => set(f.key, e.target.value)} />;
      case "secret":
        return (
          <TextInput
            {...common}
            type="password"
            autoComplete="new-password"
            placeholder={isMaskedSecret(String(value ?? "")) ? t("monitors.settingsForm.secretKept") : undefined}
            value={isMaskedSecret(String(value ?? "")) ? "" : String(value ?? "")}
            onChange={(e) => set(f.key, e.target.value)}
            onBlur={(e) => e.target.value === "" && isMaskedSecret(String(values[f.key] ?? "")) && set(f.key, String(values[f.key]))}
          />
        );
      case "number":
        return <TextInput {...common} inputMode="decimal" value={String(value ?? "")} onChange={(e) => set(f.key, e.target.value)} />;
      default:
        return <TextInput {...common} spellCheck={false} value={String(value ?? "")} onChange={(e) => set(f.key, e.target.value)} />;
    }
  };

  return (
    <div className="space-y-5" data-testid={`monitor-settings-${type}`}>
      <p className="rounded-lg bg-indigo-50/70 px-4 py-3 text-sm text-indigo-900 ring-1 ring-inset ring-indigo-100">{t(`monitors.form.typeHints.${type}`)}</p>
      {unavailable && (
        <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200" data-testid="monitor-type-unavailable">
          {t(`monitors.unavailable.${unavailable}` as never)}
        </p>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        {fields.map((f) => {
          const { label, hint } = labels(f.key);
          if (f.kind === "toggle") {
            return <Toggle key={f.key} name={`settings.${f.key}`} label={label} hint={hint} checked={values[f.key] === true} onChange={(on) => set(f.key, on)} data-testid={`monitor-setting-${f.key}`} />;
          }
          const range = numberRange(f);
          const rangeHint = f.kind === "number" && range.min !== undefined && range.max !== undefined ? t("monitors.settingsForm.range", range) : undefined;
          return (
            <div key={f.key} className={f.kind === "textarea" || f.kind === "lines" || f.kind === "json" ? "sm:col-span-2" : undefined}>
              <Field
                label={label}
                optionalLabel={f.optional ? t("common.optional") : undefined}
                hint={[hint, rangeHint].filter(Boolean).join(" ") || undefined}
                error={problem(`settings.${f.key}`)}
                errorTestId={`monitor-error-settings.${f.key}`}
              >
                {(id) => control(f, id)}
              </Field>
            </div>
          );
        })}
      </div>
    </div>
  );
}
