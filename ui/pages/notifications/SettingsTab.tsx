// The settings tab: how alerts behave (so nobody has to guess why a message came or did not), and the language and
// time zone every message is written in.
//
// data-testids: `settings-loading`, `settings-error`, `settings-how`, `settings-form`, `settings-language`,
//   `settings-timezone`, `settings-timezone-error`, `settings-browser-zone`, `settings-save`.
import { useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { NotificationLanguage, NotificationSettings } from "../../api/notifications";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { Field, SelectInput, TextInput } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { LANGUAGES } from "../../i18n/languages";
import { isTimeZone, timeZones } from "./model";
import { useSettings } from "./useSettings";
import { EditorOnly } from "../../components/guards";

const HOW = ["edge", "recovery", "agents", "thresholds", "reminders", "storms", "retries", "overrides"] as const;

export function SettingsTab() {
  const { t } = useTranslation();
  const { state, reload, save, saving } = useSettings();
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <Card data-testid="settings-how">
        <CardHeader title={t("notifications.settings.howTitle")} />
        <ul className="list-disc space-y-2 py-4 pl-10 pr-5 text-sm text-slate-600 sm:pr-6">
          {HOW.map((key) => (
            <li key={key}>{t(`notifications.settings.how.${key}`)}</li>
          ))}
        </ul>
      </Card>
      <Card>
        <CardHeader title={t("notifications.settings.messageTitle")} description={t("notifications.settings.messageHint")} />
        {state.phase === "loading" && <LoadingMessage data-testid="settings-loading">{t("notifications.settings.loading")}</LoadingMessage>}
        {state.phase === "error" && <LoadError data-testid="settings-error" message={state.message} onRetry={() => void reload()} />}
        {state.phase === "loaded" && <MessageForm key={`${state.data.language}|${state.data.timeZone}`} settings={state.data} saving={saving} onSave={save} />}
      </Card>
    </div>
  );
}

function MessageForm({ settings, saving, onSave }: { settings: NotificationSettings; saving: boolean; onSave: (change: Partial<NotificationSettings>) => Promise<boolean> }) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<NotificationLanguage>(settings.language);
  const [timeZone, setTimeZone] = useState(settings.timeZone);
  const [error, setError] = useState("");
  const zones = useMemo(timeZones, []);
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const zone = timeZone.trim();
    if (!isTimeZone(zone)) {
      setError(t("notifications.settings.timeZoneInvalid"));
      return;
    }
    setError("");
    await onSave({ language, timeZone: zone });
  };

  return (
    <form onSubmit={submit} noValidate data-testid="settings-form" className="space-y-5 px-5 py-5 sm:px-6">
      <Field label={t("notifications.settings.language")}>
        {(id) => (
          <SelectInput id={id} value={language} onChange={(e) => setLanguage(e.target.value as NotificationLanguage)} data-testid="settings-language">
            {LANGUAGES.map((l) => (
              <option key={l.code} value={l.code} lang={l.code}>
                {l.label}
              </option>
            ))}
          </SelectInput>
        )}
      </Field>
      <Field label={t("notifications.settings.timeZone")} hint={t("notifications.settings.timeZoneHint")} error={error || undefined} errorTestId="settings-timezone-error">
        {(id) => (
          <>
            <TextInput
              id={id}
              list={`${id}-zones`}
              autoComplete="off"
              spellCheck={false}
              value={timeZone}
              onChange={(e) => {
                setTimeZone(e.target.value);
                if (error && isTimeZone(e.target.value)) setError("");
              }}
              aria-invalid={error ? true : undefined}
              data-testid="settings-timezone"
            />
            <datalist id={`${id}-zones`}>
              {zones.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      {browserZone && browserZone !== timeZone && (
        <button type="button" onClick={() => { setTimeZone(browserZone); setError(""); }} data-testid="settings-browser-zone" className="text-sm font-medium text-indigo-600 hover:underline">
          {t("notifications.settings.browserZone", { zone: browserZone })}
        </button>
      )}
      <div className="flex justify-end">
        <EditorOnly>
          <Button type="submit" busy={saving} data-testid="settings-save">
            {saving ? t("common.saving") : t("common.save")}
          </Button>
        </EditorOnly>
      </div>
    </form>
  );
}
