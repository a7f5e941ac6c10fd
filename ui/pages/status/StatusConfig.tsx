// /status/config: what the public status page shows. Title and description, an announcement, the monitors and agents
// on the page (picked from lists that stay quick with thousands: search, at most TARGET_LIST_LIMIT rows), in the order
// chosen here, and the public URL to copy or open. One form, one save.
//
// data-testids: `status-config-loading`, `status-config-error`, `status-config-form`, `status-config-url`,
//   `status-config-copy`, `status-config-open`, `status-config-title`, `status-config-description`,
//   `status-config-severity`, `status-config-announcement`, `status-config-announcement-clear`,
//   `status-config-error-{title|description|announcement}`, `status-config-unsaved`, `status-config-fix-errors`,
//   `status-config-save`; the pickers are prefixed `status-monitors` and `status-agents`: `-selected`,
//   `-selected-{id}`, `-up-{id}`, `-down-{id}`, `-remove-{id}`, `-none`, `-search`, `-option-{id}` (the checkbox),
//   `-empty`, `-no-match`, `-truncated`, `-total`, `-limit`.
import { SubscribersCard } from "./SubscribersCard";
import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { listAgents } from "../../api/agents";
import { errorMessage } from "../../api/errors";
import i18n from "i18next";
import { listMonitorNames } from "../../api/monitors";
import {
  ANNOUNCEMENT_MAX,
  ANNOUNCEMENT_SEVERITIES,
  DEFAULT_STATUS_PAGE_ID,
  getStatusConfig,
  saveStatusConfig,
  STATUS_DESCRIPTION_MAX,
  STATUS_ITEMS_MAX,
  STATUS_TITLE_MAX,
  type AnnouncementSeverity,
  type StatusPageConfig,
} from "../../api/status";
import { Button, ButtonLink, buttonClass } from "../../components/Button";
import { useLoad } from "../../components/useLoad";
import { Card, CardHeader, PageHeader } from "../../components/Card";
import { CopyButton } from "../../components/CodeBlock";
import { Field, SelectInput, TextInput } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { TargetPicker, type PickerItem } from "../../components/TargetPicker";
import { configDraft, configInput, sameConfig, validateConfig, type ConfigDraft, type ConfigErrors } from "./model";
import { EditorOnly } from "../../components/guards";
import { ManagedWarning } from "../../components/Managed";

/** A monitor or an agent as the pickers show it (its detail is for telling items apart here, never sent to the public page). */
type Item = PickerItem;

/** The configuration and what it can pick from. */
async function fetchConfigAndChoices(): Promise<{ config: StatusPageConfig; monitors: Item[]; agents: Item[] }> {
  const group = i18n.t("monitors.types.group");
  const [{ config }, monitors, agents] = await Promise.all([getStatusConfig(), listMonitorNames(), listAgents()]);
  return {
    config,
    // A group shows as one row that opens to its members: the picker says which items are groups.
    monitors: (monitors.monitors ?? []).map((m) => ({ id: m.id, name: m.name, detail: m.type === "group" ? group : m.target })),
    agents: (agents.agents ?? []).map((a) => ({ id: a.id, name: a.name, detail: a.hostname })),
  };
}

const TEXTAREA =
  "block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 " +
  "placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-500 focus:outline-none";
const INVALID = "ring-red-400! focus:ring-red-500!";

/** The `{{max}}` of each field's problem. */
const LIMITS: Record<keyof ConfigErrors, number> = {
  title: STATUS_TITLE_MAX,
  description: STATUS_DESCRIPTION_MAX,
  announcement: ANNOUNCEMENT_MAX,
  monitorIds: STATUS_ITEMS_MAX,
  agentIds: STATUS_ITEMS_MAX,
};

export default function StatusConfig() {
  const { t } = useTranslation();
  useDocumentTitle(t("statusConfig.title"));
  const { state, reload: load } = useLoad(fetchConfigAndChoices, t("errors.fetchFailed"));

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title={t("statusConfig.title")}
        description={t("statusConfig.subtitle")}
        actions={
          <ButtonLink href="/status-pages" variant="secondary" data-testid="status-config-all-pages">
            {t("statusPages.allPages")}
          </ButtonLink>
        }
      />
      {state.phase === "loading" && (
        <Card>
          <LoadingMessage data-testid="status-config-loading">{t("statusConfig.loading")}</LoadingMessage>
        </Card>
      )}
      {state.phase === "error" && (
        <Card>
          <LoadError data-testid="status-config-error" message={state.message} onRetry={() => void load()} />
        </Card>
      )}
      {/* The default page: a configuration file may manage it too (statusPages: with slug default). */}
      <ManagedWarning what="statusPage" id={DEFAULT_STATUS_PAGE_ID} />
      {state.phase === "loaded" && <ConfigForm {...state.data} />}
      {state.phase === "loaded" && (
        <div className="mt-6">
          <SubscribersCard pageId={DEFAULT_STATUS_PAGE_ID} />
        </div>
      )}
    </div>
  );
}

function ConfigForm({ config, monitors, agents }: { config: StatusPageConfig; monitors: Item[]; agents: Item[] }) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(() => configDraft(config));
  const [draft, setDraft] = useState(saved);
  const [publicUrl, setPublicUrl] = useState(config.publicUrl);
  const [saving, setSaving] = useState(false);
  const [tried, setTried] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  // Limits are checked as you type: the counters turn red at once, the save is refused until they are fixed.
  const errors: ConfigErrors = validateConfig(draft);
  const hasErrors = Object.keys(errors).length > 0;
  const dirty = !sameConfig(draft, saved);
  const update = (patch: Partial<ConfigDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const problem = (field: keyof ConfigErrors) => (errors[field] ? t(errors[field], { max: LIMITS[field] }) : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (hasErrors) {
      formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
      return;
    }
    setSaving(true);
    try {
      const reply = await saveStatusConfig(configInput(draft));
      const next = configDraft(reply.config);
      setSaved(next);
      setDraft(next);
      setPublicUrl(reply.config.publicUrl);
      setTried(false);
      toast.success(t("statusConfig.saved"));
    } catch (err) {
      toast.error(`${t("statusConfig.saveFailed")}: ${errorMessage(err, t("errors.fetchFailed"))}`);
    } finally {
      setSaving(false);
    }
  };

  const counter = (length: number, max: number) => (
    <span className={`shrink-0 whitespace-nowrap tabular-nums ${length > max ? "font-medium text-red-600" : ""}`}>{t("statusConfig.counter", { count: length, max })}</span>
  );
  const invalid = (field: keyof ConfigErrors) => (errors[field] ? { "aria-invalid": true as const } : {});

  return (
    <form ref={formRef} onSubmit={submit} noValidate data-testid="status-config-form" className="space-y-6">
      <Card>
        <CardHeader title={t("statusConfig.publicUrl")} description={t("statusConfig.publicUrlHint")} />
        <div className="flex flex-wrap items-center gap-2 px-5 py-4 sm:px-6">
          <code data-testid="status-config-url" className="w-full min-w-0 break-all sm:w-auto sm:flex-1 rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm text-slate-800">
            {publicUrl}
          </code>
          <CopyButton text={publicUrl} copiedMessage={t("statusConfig.urlCopied")} data-testid="status-config-copy" />
          <a href={publicUrl} target="_blank" rel="noopener noreferrer" className={buttonClass("secondary", "sm")} data-testid="status-config-open">
            {t("statusConfig.open")}
          </a>
        </div>
      </Card>

      <Card>
        <CardHeader title={t("statusConfig.pageTitle")} description={t("statusConfig.pageHint")} />
        <div className="space-y-5 px-5 py-5 sm:px-6">
          <Field
            label={t("statusConfig.fieldTitle")}
            hint={
              <span className="flex justify-between gap-3">
                <span>{t("statusConfig.titleHint", { fallback: t("statusPage.title") })}</span>
                {counter(draft.title.trim().length, STATUS_TITLE_MAX)}
              </span>
            }
            error={problem("title")}
            errorTestId="status-config-error-title"
          >
            {(id) => (
              <TextInput
                id={id}
                name="title"
                autoComplete="off"
                placeholder={t("statusPage.title")}
                value={draft.title}
                onChange={(e) => update({ title: e.target.value })}
                data-testid="status-config-title"
                className={errors.title ? INVALID : ""}
                {...invalid("title")}
              />
            )}
          </Field>
          <Field
            label={t("statusConfig.fieldDescription")}
            optionalLabel={t("common.optional")}
            hint={<span className="flex justify-end">{counter(draft.description.trim().length, STATUS_DESCRIPTION_MAX)}</span>}
            error={problem("description")}
            errorTestId="status-config-error-description"
          >
            {(id) => (
              <textarea
                id={id}
                name="description"
                rows={3}
                placeholder={t("statusConfig.descriptionPlaceholder")}
                value={draft.description}
                onChange={(e) => update({ description: e.target.value })}
                data-testid="status-config-description"
                className={`${TEXTAREA} ${errors.description ? INVALID : ""}`}
                {...invalid("description")}
              />
            )}
          </Field>
        </div>
      </Card>

      <AnnouncementCard
        severity={draft.severity}
        text={draft.announcement}
        onChange={(patch) => update(patch)}
        error={problem("announcement")}
        counter={counter(draft.announcement.trim().length, ANNOUNCEMENT_MAX)}
      />

      <TargetPicker
        ordered
        max={STATUS_ITEMS_MAX}
        limitText={t("statusConfig.limitReached", { max: STATUS_ITEMS_MAX })}
        selectedTitle={t("statusConfig.selected", { count: draft.monitorIds.length })}
        noneText={t("statusConfig.noneSelected")}
        prefix="status-monitors"
        title={t("statusConfig.monitorsTitle")}
        hint={t("statusConfig.monitorsHint")}
        searchLabel={t("statusConfig.searchMonitors")}
        emptyText={t("statusConfig.noMonitors")}
        items={monitors}
        selected={draft.monitorIds}
        onChange={(monitorIds) => update({ monitorIds })}
        error={problem("monitorIds")}
      />
      <TargetPicker
        ordered
        max={STATUS_ITEMS_MAX}
        limitText={t("statusConfig.limitReached", { max: STATUS_ITEMS_MAX })}
        selectedTitle={t("statusConfig.selected", { count: draft.agentIds.length })}
        noneText={t("statusConfig.noneSelected")}
        prefix="status-agents"
        title={t("statusConfig.agentsTitle")}
        hint={t("statusConfig.agentsHint")}
        searchLabel={t("statusConfig.searchAgents")}
        emptyText={t("statusConfig.noAgents")}
        items={agents}
        selected={draft.agentIds}
        onChange={(agentIds) => update({ agentIds })}
        error={problem("agentIds")}
      />

      {/* Kept in view at the bottom of the window: the lists above can be long. */}
      <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 bg-white/90 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
        {tried && hasErrors && (
          <p role="alert" data-testid="status-config-fix-errors" className="text-sm text-red-600">
            {t("statusConfig.fixErrors")}
          </p>
        )}
        {dirty && !(tried && hasErrors) && (
          <p data-testid="status-config-unsaved" className="text-sm text-amber-700">
            {t("statusConfig.unsaved")}
          </p>
        )}
        <EditorOnly>
          <Button type="submit" busy={saving} data-testid="status-config-save">
            {saving ? t("common.saving") : t("common.save")}
          </Button>
        </EditorOnly>
      </div>
    </form>
  );
}

function AnnouncementCard({
  severity,
  text,
  onChange,
  error,
  counter,
}: {
  severity: AnnouncementSeverity;
  text: string;
  onChange: (patch: { severity?: AnnouncementSeverity; announcement?: string }) => void;
  error: string | undefined;
  counter: ReactNode;
}) {
  const { t } = useTranslation();
  const textRef = useRef<HTMLTextAreaElement>(null);
  return (
    <Card>
      <CardHeader title={t("statusConfig.announcement")} description={t("statusConfig.announcementHint")} />
      <div className="grid gap-5 px-5 py-5 sm:grid-cols-[12rem_minmax(0,1fr)] sm:px-6">
        <Field label={t("statusConfig.severity")}>
          {(id) => (
            <SelectInput id={id} name="severity" value={severity} onChange={(e) => onChange({ severity: e.target.value as AnnouncementSeverity })} data-testid="status-config-severity">
              {ANNOUNCEMENT_SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {t(`statusConfig.severities.${s}`)}
                </option>
              ))}
            </SelectInput>
          )}
        </Field>
        <Field
          label={t("statusConfig.announcementText")}
          optionalLabel={t("common.optional")}
          hint={<span className="flex justify-end">{counter}</span>}
          error={error}
          errorTestId="status-config-error-announcement"
        >
          {(id) => (
            <div className="space-y-2">
              <textarea
                ref={textRef}
                id={id}
                name="announcement"
                rows={3}
                placeholder={t("statusConfig.announcementPlaceholder")}
                value={text}
                onChange={(e) => onChange({ announcement: e.target.value })}
                data-testid="status-config-announcement"
                aria-invalid={error ? true : undefined}
                className={`${TEXTAREA} ${error ? INVALID : ""}`}
              />
              <div className="flex justify-end">
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={!text}
                  onClick={() => {
                    onChange({ announcement: "" });
                    textRef.current?.focus();
                  }}
                  data-testid="status-config-announcement-clear"
                >
                  {t("statusConfig.clearAnnouncement")}
                </Button>
              </div>
            </div>
          )}
        </Field>
      </div>
    </Card>
  );
}
