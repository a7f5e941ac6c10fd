// The monitor and agent configuration tabs: find a monitor or an agent (search, at most TARGET_LIST_LIMIT rows so
// thousands stay quick), see whether it uses the global settings or its own, and give it its own or send it back to
// the global ones. The chosen one is in the URL (`?tab=monitors&monitor=3`): the monitor and agent pages link here.
//
// data-testids: `targets-search`, `targets-loading`, `targets-error`, `targets-empty`, `targets-no-match`,
//   `targets-total`, `targets-truncated`, `target-item-{id}` (aria-current="page" on the chosen one),
//   `target-mode-{id}` (data-mode="own|global"), `targets-choose`, `target-editor`, `target-editor-loading`,
//   `target-editor-error`, `target-state` (data-override="true|false"), `target-save`, `target-use-global`,
//   `target-open`, `target-close`, `target-fix-errors`; the form's controls are prefixed `target` (parts.tsx).
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useLocation } from "wouter";
import { listAgents } from "../../api/agents";
import { errorMessage } from "../../api/errors";
import { listMonitorNames } from "../../api/monitors";
import {
  clearTargetSettings,
  getTargetSettings,
  listOverrides,
  saveTargetSettings,
  type AgentNotificationSettings,
  type MonitorNotificationSettings,
  type PublicChannel,
  type TargetKind,
} from "../../api/notifications";
import { Button, buttonClass } from "../../components/Button";
import { Card } from "../../components/Card";
import { TextInput } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import {
  agentDraft,
  agentSettings,
  knownChannelIds,
  monitorDraft,
  monitorSettings,
  searchTargets,
  tabHref,
  validateAgentDraft,
  validateMonitorDraft,
  type AgentDraft,
  type MonitorDraft,
  type PartErrors,
} from "./model";
import { AgentPartForm, Badge, MonitorPartForm } from "./parts";
import { useChannels } from "./useChannels";
import { EditorOnly } from "../../components/guards";

/** A row of the list: what the search looks at. */
interface Target {
  id: number;
  name: string;
  /** The monitor's URL or the agent's host. */
  detail: string;
}

type ListState = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; targets: Target[]; own: ReadonlySet<number> };

export function TargetsTab({ kind, selected }: { kind: TargetKind; selected: number | null }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [list, setList] = useState<ListState>({ phase: "loading" });
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const channels = useChannels();
  const editorRef = useRef<HTMLDivElement>(null);

  const load = useCallback(async () => {
    setList({ phase: "loading" });
    try {
      const [targets, overrides] = await Promise.all([
        kind === "monitors"
          ? listMonitorNames().then((r) => (r.monitors ?? []).map((m) => ({ id: m.id, name: m.name, detail: m.target })))
          : listAgents().then((r) => (r.agents ?? []).map((a) => ({ id: a.id, name: a.name, detail: a.hostname }))),
        listOverrides(),
      ]);
      setList({ phase: "loaded", targets, own: new Set(kind === "monitors" ? overrides.monitors : overrides.agents) });
    } catch (err) {
      setList({ phase: "error", message: errorMessage(err, t(kind === "monitors" ? "notifications.targets.monitorsFetchFailed" : "notifications.targets.agentsFetchFailed")) });
    }
  }, [kind, t]);

  useEffect(() => {
    void load();
  }, [load]);

  const found = useMemo(() => (list.phase === "loaded" ? searchTargets(list.targets, deferredQuery, (x) => x.detail) : { shown: [], matched: 0 }), [list, deferredQuery]);
  const chosen = list.phase === "loaded" && selected !== null ? list.targets.find((x) => x.id === selected) : undefined;

  // On a phone the editor sits above the list: bring it into view when a target is chosen.
  useEffect(() => {
    if (selected !== null) editorRef.current?.scrollIntoView?.({ block: "nearest" });
  }, [selected]);

  const markOwn = (id: number, own: boolean) =>
    setList((s) => {
      if (s.phase !== "loaded") return s;
      const next = new Set(s.own);
      if (own) next.add(id);
      else next.delete(id);
      return { ...s, own: next };
    });

  const title = t(kind === "monitors" ? "notifications.targets.monitorsTitle" : "notifications.targets.agentsTitle");
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
      <div ref={editorRef} className="order-first scroll-mt-20 lg:order-last">
        {selected === null ? (
          <p data-testid="targets-choose" className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-500">
            {t("notifications.targets.choose")}
          </p>
        ) : channels.state.phase === "error" ? (
          <Card>
            <LoadError data-testid="target-editor-error" message={channels.state.message} onRetry={() => void channels.reload()} />
          </Card>
        ) : channels.state.phase === "loading" ? (
          <Card>
            <LoadingMessage data-testid="target-editor-loading">{t("notifications.targets.editorLoading")}</LoadingMessage>
          </Card>
        ) : (
          <TargetEditor
            key={`${kind}-${selected}`}
            kind={kind}
            id={selected}
            name={chosen?.name}
            channels={channels.state.data}
            onOwnChanged={(own) => markOwn(selected, own)}
            onClose={() => navigate(tabHref(kind), { replace: true })}
          />
        )}
      </div>
      <Card className="self-start overflow-hidden">
        <div className="border-b border-slate-100 px-4 py-4 sm:px-5">
          <h2 className="text-base font-semibold text-slate-900">{title}</h2>
          <p className="mt-0.5 text-sm text-slate-500">{t(kind === "monitors" ? "notifications.targets.monitorsHint" : "notifications.targets.agentsHint")}</p>
          <TextInput
            type="search"
            className="mt-3"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={t(kind === "monitors" ? "notifications.targets.searchMonitors" : "notifications.targets.searchAgents")}
            aria-label={t(kind === "monitors" ? "notifications.targets.searchMonitors" : "notifications.targets.searchAgents")}
            data-testid="targets-search"
          />
        </div>
        {list.phase === "loading" && <LoadingMessage data-testid="targets-loading">{t("notifications.targets.loading")}</LoadingMessage>}
        {list.phase === "error" && <LoadError data-testid="targets-error" message={list.message} onRetry={() => void load()} />}
        {list.phase === "loaded" && list.targets.length === 0 && (
          <p data-testid="targets-empty" className="px-6 py-10 text-center text-sm text-slate-500">
            {t(kind === "monitors" ? "notifications.targets.monitorsEmpty" : "notifications.targets.agentsEmpty")}
          </p>
        )}
        {list.phase === "loaded" && list.targets.length > 0 && found.matched === 0 && (
          <p data-testid="targets-no-match" className="px-6 py-10 text-center text-sm text-slate-500">
            {t("notifications.targets.noMatch", { query: deferredQuery.trim() })}
          </p>
        )}
        {list.phase === "loaded" && found.shown.length > 0 && (
          <>
            <ul className="max-h-[32rem] divide-y divide-slate-100 overflow-y-auto">
              {found.shown.map((x) => {
                const own = list.own.has(x.id);
                const current = x.id === selected;
                return (
                  <li key={x.id}>
                    <Link
                      href={tabHref(kind, x.id)}
                      replace
                      aria-current={current ? "page" : undefined}
                      data-testid={`target-item-${x.id}`}
                      className={`flex items-center gap-3 px-4 py-2.5 sm:px-5 ${current ? "bg-indigo-50" : "hover:bg-slate-50"}`}
                    >
                      <span className="min-w-0 flex-1">
                        <span className={`block truncate text-sm ${current ? "font-semibold text-indigo-800" : "font-medium text-slate-800"}`}>{x.name}</span>
                        <span className="block truncate text-xs text-slate-500">{x.detail || t("common.dash")}</span>
                      </span>
                      <span data-testid={`target-mode-${x.id}`} data-mode={own ? "own" : "global"}>
                        <Badge tone={own ? "indigo" : "grey"}>{t(own ? "notifications.targets.usesOwn" : "notifications.targets.usesGlobal")}</Badge>
                      </span>
                    </Link>
                  </li>
                );
              })}
            </ul>
            <p className="border-t border-slate-100 px-4 py-2 text-xs text-slate-500 sm:px-5">
              {found.matched > found.shown.length ? (
                <span data-testid="targets-truncated">{t("notifications.targets.truncated", { shown: found.shown.length, total: found.matched })}</span>
              ) : (
                <span data-testid="targets-total">{t("notifications.targets.total", { count: found.matched })}</span>
              )}
            </p>
          </>
        )}
      </Card>
    </div>
  );
}

type Draft = MonitorDraft | AgentDraft;
type EditorState = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; override: boolean; draft: Draft };

const toDraft = (kind: TargetKind, s: MonitorNotificationSettings | AgentNotificationSettings): Draft =>
  kind === "monitors" ? monitorDraft(s as MonitorNotificationSettings) : agentDraft(s as AgentNotificationSettings);

interface EditorProps {
  kind: TargetKind;
  id: number;
  /** Its name once the list is loaded. */
  name: string | undefined;
  channels: PublicChannel[];
  onOwnChanged: (own: boolean) => void;
  onClose: () => void;
}

/** One target's settings: the ones in force (its own or the global ones), editable; saving makes them its own. */
function TargetEditor({ kind, id, name, channels, onOwnChanged, onClose }: EditorProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<EditorState>({ phase: "loading" });
  const [errors, setErrors] = useState<PartErrors | null>(null);
  const [busy, setBusy] = useState<"save" | "clear" | null>(null);

  const load = useCallback(async () => {
    setState({ phase: "loading" });
    try {
      const reply = await getTargetSettings(kind, id);
      setState({ phase: "loaded", override: reply.override, draft: toDraft(kind, reply.settings) });
    } catch (err) {
      setState({ phase: "error", message: errorMessage(err, t("notifications.targets.editorFetchFailed")) });
    }
  }, [kind, id, t]);

  useEffect(() => {
    void load();
  }, [load]);

  const validate = (d: Draft) => (kind === "monitors" ? validateMonitorDraft(d as MonitorDraft) : validateAgentDraft(d as AgentDraft));
  const setDraft = (draft: Draft) => {
    setState((s) => (s.phase === "loaded" ? { ...s, draft } : s));
    if (errors) setErrors(validate(draft));
  };

  const existing = new Set(channels.map((c) => c.id));
  const label = name ?? `#${id}`;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (state.phase !== "loaded") return;
    const found = validate(state.draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy("save");
    try {
      const reply =
        kind === "monitors"
          ? await saveTargetSettings("monitors", id, (({ channelIds, ...rest }) => ({ ...rest, channelIds: knownChannelIds(channelIds, existing) }))(monitorSettings(state.draft as MonitorDraft)))
          : await saveTargetSettings("agents", id, (({ channelIds, ...rest }) => ({ ...rest, channelIds: knownChannelIds(channelIds, existing) }))(agentSettings(state.draft as AgentDraft)));
      setState({ phase: "loaded", override: reply.override, draft: toDraft(kind, reply.settings) });
      onOwnChanged(reply.override);
      toast.success(t("notifications.settingsSaved"));
    } catch (err) {
      toast.error(`${t("notifications.settingsSaveFailed")}: ${errorMessage(err, t("errors.fetchFailed"))}`);
    } finally {
      setBusy(null);
    }
  };

  const backToGlobal = async () => {
    setBusy("clear");
    try {
      const reply = await clearTargetSettings(kind, id);
      setState({ phase: "loaded", override: reply.override, draft: toDraft(kind, reply.settings) });
      setErrors(null);
      onOwnChanged(false);
      toast.success(t("notifications.targets.usesGlobalNow", { name: label }));
    } catch (err) {
      toast.error(`${t("notifications.targets.useGlobalFailed")}: ${errorMessage(err, t("errors.fetchFailed"))}`);
    } finally {
      setBusy(null);
    }
  };

  const hasErrors = errors !== null && Object.keys(errors).length > 0;
  return (
    <Card data-testid="target-editor">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-5 py-4 sm:px-6">
        <h2 className="min-w-0 flex-1 break-words text-base font-semibold text-slate-900">{t("notifications.targets.editorTitle", { name: label })}</h2>
        <div className="flex gap-2">
          <Link href={kind === "monitors" ? `/monitors/${id}` : `/agents/${id}`} className={buttonClass("ghost", "sm")} data-testid="target-open">
            {t(kind === "monitors" ? "notifications.targets.openMonitor" : "notifications.targets.openAgent")}
          </Link>
          <Button variant="ghost" size="sm" onClick={onClose} data-testid="target-close">
            {t("notifications.targets.close")}
          </Button>
        </div>
      </div>
      {state.phase === "loading" && <LoadingMessage data-testid="target-editor-loading">{t("notifications.targets.editorLoading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError data-testid="target-editor-error" message={state.message} onRetry={() => void load()} />}
      {state.phase === "loaded" && (
        <form onSubmit={save} noValidate className="space-y-5 px-5 py-5 sm:px-6">
          <p
            data-testid="target-state"
            data-override={String(state.override)}
            className={`rounded-lg px-3 py-2 text-sm ${state.override ? "bg-indigo-50 text-indigo-800" : "bg-slate-50 text-slate-600"}`}
          >
            {t(state.override ? "notifications.targets.stateOwn" : "notifications.targets.stateGlobal")}
          </p>
          {kind === "monitors" ? (
            <MonitorPartForm value={state.draft as MonitorDraft} onChange={setDraft} channels={channels} errors={errors ?? {}} prefix="target" />
          ) : (
            <AgentPartForm value={state.draft as AgentDraft} onChange={setDraft} channels={channels} errors={errors ?? {}} prefix="target" />
          )}
          <div className="flex flex-col-reverse flex-wrap gap-3 sm:flex-row sm:items-center sm:justify-end">
            {hasErrors && (
              <p role="alert" data-testid="target-fix-errors" className="text-sm text-red-600 sm:mr-auto">
                {t("notifications.parts.fixErrors")}
              </p>
            )}
            <EditorOnly>
              {state.override && (
                <Button variant="secondary" busy={busy === "clear"} disabled={busy !== null} onClick={() => void backToGlobal()} data-testid="target-use-global">
                  {t("notifications.targets.useGlobal")}
                </Button>
              )}
              <Button type="submit" busy={busy === "save"} disabled={busy !== null} data-testid="target-save">
                {busy === "save" ? t("common.saving") : t("notifications.targets.save")}
              </Button>
            </EditorOnly>
          </div>
        </form>
      )}
    </Card>
  );
}
