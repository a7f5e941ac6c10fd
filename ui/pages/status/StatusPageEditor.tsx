// /status-pages/new and /status-pages/:id: a status page's address, texts, logo, who may see it (everyone, with a
// password, signed-in users), custom domain, announcement, and its monitors and agents in named groups.
//
// data-testids: `page-form`, `page-slug`, `page-title`, `page-description`, `page-logo-file`, `page-logo-clear`,
//   `page-visibility`, `page-password`, `page-domain`, `page-group-{i}` with `page-group-name-{i}`, `page-group-remove-{i}`
//   and its pickers `page-group-{i}-monitors` / `-agents`, `page-group-add`, `page-save`, `page-url`.
import { useCallback, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation, useParams } from "wouter";
import { errorMessage } from "../../api/errors";
import {
  createStatusPage,
  getStatusPage,
  saveStatusPage,
  STATUS_DESCRIPTION_MAX,
  STATUS_LOGO_MAX,
  STATUS_TITLE_MAX,
  STATUS_VISIBILITIES,
  type StatusPageGroup,
  type StatusPageInput,
  type StatusVisibility,
} from "../../api/status";
import { Button, ButtonLink } from "../../components/Button";
import { Card, CardHeader, PageHeader } from "../../components/Card";
import { Field, FormMessage, SelectInput, TextInput, Toggle } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { TargetPicker } from "../../components/TargetPicker";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";
import { FeedLinkCard } from "./FeedLinkCard";
import { SubscribersCard } from "./SubscribersCard";
import { fetchChoices, type Choices } from "../incidents/IncidentFields";
import { EditorOnly } from "../../components/guards";
import { ManagedWarning } from "../../components/Managed";

interface Draft extends Omit<StatusPageInput, "password"> {
  password: string;
  hasPassword: boolean;
}

const blank = (): Draft => ({ slug: "", title: "", description: "", logo: null, customDomain: null, visibility: "public", password: "", hasPassword: false, announcement: null, groups: [{ name: "", items: [] }] });

export default function StatusPageEditor() {
  const { t } = useTranslation();
  const id = Number(useParams<{ id?: string }>().id) || null;
  useDocumentTitle(t(id ? "statusPages.editTitle" : "statusPages.createTitle"));
  const fetch = useCallback(async () => {
    const [choices, page] = await Promise.all([fetchChoices(), id ? getStatusPage(id).then((r) => r.page) : null]);
    const draft: Draft = page ? { ...page, password: "", groups: page.groups.length ? page.groups : [{ name: "", items: [] }] } : blank();
    return { choices, draft, page };
  }, [id]);
  const { state, reload } = useLoad(fetch, t("statusPages.fetchFailed"));
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title={t(id ? "statusPages.editTitle" : "statusPages.createTitle")}
        actions={
          <ButtonLink href="/status-pages" variant="secondary">
            {t("statusPages.backToList")}
          </ButtonLink>
        }
      />
      {state.phase === "loading" && <LoadingMessage data-testid="page-loading">{t("statusPages.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError message={state.message} onRetry={() => void reload()} data-testid="page-error" />}
      {id !== null && <ManagedWarning what="statusPage" id={id} />}
      {state.phase === "loaded" && <PageForm id={id} initial={state.data.draft} choices={state.data.choices} url={state.data.page?.url ?? null} />}
      {state.phase === "loaded" && state.data.page && (
        <div className="mt-6 space-y-6">
          <FeedLinkCard page={state.data.page} />
          <SubscribersCard pageId={state.data.page.id} />
        </div>
      )}
    </div>
  );
}

function PageForm({ id, initial, choices, url }: { id: number | null; initial: Draft; choices: Choices; url: string | null }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [draft, setDraft] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState("");
  const update = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const setGroup = (i: number, patch: Partial<StatusPageGroup>) => update({ groups: draft.groups.map((g, k) => (k === i ? { ...g, ...patch } : g)) });
  const itemsOf = (g: StatusPageGroup, type: "monitor" | "agent") => g.items.filter((x) => x.type === type).map((x) => x.id);
  const withItems = (g: StatusPageGroup, type: "monitor" | "agent", ids: number[]) => [...g.items.filter((x) => x.type !== type), ...ids.map((id) => ({ type, id }))];

  const pickLogo = (file: File | undefined) => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      const data = String(reader.result);
      if (data.length > STATUS_LOGO_MAX) return void toast.error(t("statusPages.logoTooLarge"));
      update({ logo: data });
    };
    reader.readAsDataURL(file);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure("");
    setSaving(true);
    const { hasPassword: _, password, ...rest } = draft;
    const input: StatusPageInput = { ...rest, customDomain: rest.customDomain?.trim() || null, ...(password ? { password } : {}), groups: rest.groups.filter((g) => g.items.length) };
    try {
      await (id ? saveStatusPage(id, input) : createStatusPage(input));
      toast.success(t(id ? "statusPages.saved" : "statusPages.created"));
      navigate("/status-pages");
    } catch (err) {
      setFailure(errorMessage(err, t("statusPages.saveFailed")));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-6" data-testid="page-form">
      <Card>
        <CardHeader title={t("statusPages.form.page")} description={url ? <span data-testid="page-url">{url}</span> : t("statusPages.form.addressHint")} />
        <div className="grid gap-5 px-5 py-5 sm:grid-cols-2 sm:px-6">
          <Field label={t("statusPages.form.slug")} hint={t("statusPages.form.slugHint")}>
            {(fid) => <TextInput id={fid} value={draft.slug} onChange={(e) => update({ slug: e.target.value.toLowerCase() })} placeholder="customers" data-testid="page-slug" />}
          </Field>
          <Field label={t("statusConfig.fieldTitle")}>
            {(fid) => <TextInput id={fid} value={draft.title} maxLength={STATUS_TITLE_MAX} onChange={(e) => update({ title: e.target.value })} data-testid="page-title" />}
          </Field>
          <div className="sm:col-span-2">
            <Field label={t("statusConfig.fieldDescription")} optionalLabel={t("common.optional")}>
              {(fid) => <TextInput id={fid} value={draft.description} maxLength={STATUS_DESCRIPTION_MAX} onChange={(e) => update({ description: e.target.value })} data-testid="page-description" />}
            </Field>
          </div>
          <Field label={t("statusPages.form.logo")} hint={t("statusPages.form.logoHint")}>
            {(fid) => (
              <div className="flex items-center gap-3">
                {draft.logo && <img src={draft.logo} alt="" className="h-9 max-w-32 object-contain" data-testid="page-logo-preview" />}
                <input id={fid} type="file" accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml" onChange={(e) => pickLogo(e.target.files?.[0])} className="text-sm" data-testid="page-logo-file" />
                {draft.logo && (
                  <Button size="sm" variant="ghost" onClick={() => update({ logo: null })} data-testid="page-logo-clear">
                    {t("statusConfig.clearAnnouncement")}
                  </Button>
                )}
              </div>
            )}
          </Field>
          <Field label={t("statusPages.form.domain")} optionalLabel={t("common.optional")} hint={t("statusPages.form.domainHint")}>
            {(fid) => <TextInput id={fid} value={draft.customDomain ?? ""} onChange={(e) => update({ customDomain: e.target.value })} placeholder="status.example.com" data-testid="page-domain" />}
          </Field>
          <Field label={t("statusPages.form.visibility")}>
            {(fid) => (
              <SelectInput id={fid} value={draft.visibility} onChange={(e) => update({ visibility: e.target.value as StatusVisibility })} data-testid="page-visibility">
                {STATUS_VISIBILITIES.map((v) => (
                  <option key={v} value={v}>
                    {t(`statusPages.visibility.${v}`)}
                  </option>
                ))}
              </SelectInput>
            )}
          </Field>
          {draft.visibility === "password" && (
            <Field label={t("statusPages.form.password")} hint={t(draft.hasPassword ? "statusPages.form.passwordKeep" : "statusPages.form.passwordHint")}>
              {(fid) => <TextInput id={fid} type="password" autoComplete="new-password" value={draft.password} onChange={(e) => update({ password: e.target.value })} data-testid="page-password" />}
            </Field>
          )}
          <Toggle
            name="showLocations"
            label={t("statusPages.form.showLocations")}
            hint={t("statusPages.form.showLocationsHint")}
            checked={draft.showLocations ?? false}
            onChange={(showLocations) => update({ showLocations })}
            data-testid="page-show-locations"
          />
        </div>
      </Card>

      {draft.groups.map((g, i) => (
        <div key={i} className="space-y-3" data-testid={`page-group-${i}`}>
          <div className="flex items-end gap-3">
            <div className="flex-1">
              <Field label={t("statusPages.form.groupName")} optionalLabel={t("common.optional")}>
                {(fid) => <TextInput id={fid} value={g.name} onChange={(e) => setGroup(i, { name: e.target.value })} data-testid={`page-group-name-${i}`} />}
              </Field>
            </div>
            {draft.groups.length > 1 && (
              <Button variant="dangerGhost" onClick={() => update({ groups: draft.groups.filter((_, k) => k !== i) })} data-testid={`page-group-remove-${i}`}>
                {t("statusPages.form.removeGroup")}
              </Button>
            )}
          </div>
          <TargetPicker
            ordered
            prefix={`page-group-${i}-monitors`}
            title={t("statusConfig.monitorsTitle")}
            hint={t("statusConfig.monitorsHint")}
            selectedTitle={t("statusConfig.selected", { count: itemsOf(g, "monitor").length })}
            noneText={t("statusConfig.noneSelected")}
            searchLabel={t("statusConfig.searchMonitors")}
            emptyText={t("statusConfig.noMonitors")}
            items={choices.monitors}
            selected={itemsOf(g, "monitor")}
            onChange={(ids) => setGroup(i, { items: withItems(g, "monitor", ids) })}
            error={undefined}
          />
          {choices.agents.length > 0 && (
            <TargetPicker
              ordered
              prefix={`page-group-${i}-agents`}
              title={t("statusConfig.agentsTitle")}
              hint={t("statusConfig.agentsHint")}
              selectedTitle={t("statusConfig.selected", { count: itemsOf(g, "agent").length })}
              noneText={t("statusConfig.noneSelected")}
              searchLabel={t("statusConfig.searchAgents")}
              emptyText={t("statusConfig.noAgents")}
              items={choices.agents}
              selected={itemsOf(g, "agent")}
              onChange={(ids) => setGroup(i, { items: withItems(g, "agent", ids) })}
              error={undefined}
            />
          )}
        </div>
      ))}
      <Button variant="secondary" onClick={() => update({ groups: [...draft.groups, { name: "", items: [] }] })} data-testid="page-group-add">
        {t("statusPages.form.addGroup")}
      </Button>

      <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 bg-white/90 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
        <FormMessage kind="error">{failure}</FormMessage>
        <EditorOnly>
          <Button type="submit" busy={saving} data-testid="page-save">
            {t(id ? "common.save" : "statusPages.create")}
          </Button>
        </EditorOnly>
      </div>
    </form>
  );
}
