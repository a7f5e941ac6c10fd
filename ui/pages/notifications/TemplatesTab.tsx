// The templates tab: pick a channel and an event kind, write a title and a body in Liquid with the variables listed
// beside, see a sample event rendered in both languages as you type, and save (the server checks again and answers
// a problem with its line and column).
//
// data-testids: `templates-empty`, `template-channel`, `template-kind`, `template-title`, `template-body`,
//   `template-json-hint`, `template-variables`, `template-sample` (a monitor event's sample type),
//   `template-preview-{lang}` (with `-title`, `-body`, `-problem`),
//   `template-error`, `template-save`, `template-reset`, `template-custom`.
import { useEffect, useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import {
  previewTemplate,
  SAMPLE_CHECK_TYPES,
  TEMPLATE_KINDS,
  updateChannel,
  type NotificationLanguage,
  type PreviewPart,
  type PublicChannel,
  type SampleCheckType,
  type TemplateKind,
} from "../../api/notifications";
import { Button, ButtonLink } from "../../components/Button";
import { Card } from "../../components/Card";
import { Field, SelectInput, TextInput } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { TEXTAREA } from "../incidents/IncidentFields";
import { tabHref } from "./model";
import { templateProblemText, TemplateVariables } from "./templateParts";
import { useChannels } from "./useChannels";
import { EditorOnly } from "../../components/guards";

const LANGS: NotificationLanguage[] = ["zh-CN", "en-US"];
const PREVIEW_DELAY_MS = 300;
/** The kinds about a monitor: their sample can be an HTTP monitor's or a later type's. */
const MONITOR_KINDS: TemplateKind[] = ["down", "recovery", "reminder"];

export function TemplatesTab() {
  const { t } = useTranslation();
  const { state, reload, put } = useChannels();
  const [channelId, setChannelId] = useState<number | null>(null);
  if (state.phase === "loading") return <LoadingMessage data-testid="templates-loading">{t("notifications.channels.loading")}</LoadingMessage>;
  if (state.phase === "error") return <LoadError data-testid="templates-error" message={state.message} onRetry={() => reload()} />;
  const channels = state.data;
  if (!channels.length) {
    return (
      <div data-testid="templates-empty" className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
        <p className="text-sm text-slate-600">{t("notifications.templates.noChannels")}</p>
        <ButtonLink href={tabHref("channels")} variant="secondary" size="sm" className="mt-4">
          {t("notifications.templates.toChannels")}
        </ButtonLink>
      </div>
    );
  }
  const channel = channels.find((c) => c.id === channelId) ?? channels[0]!;
  return <TemplateEditor key={channel.id} channel={channel} channels={channels} onChannel={setChannelId} onSaved={put} />;
}

interface EditorProps {
  channel: PublicChannel;
  channels: PublicChannel[];
  onChannel: (id: number) => void;
  onSaved: (channel: PublicChannel) => void;
}

function TemplateEditor({ channel, channels, onChannel, onSaved }: EditorProps) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<TemplateKind>("down");
  const stored = channel.templates[kind] ?? {};
  const [title, setTitle] = useState(stored.title ?? "");
  const [body, setBody] = useState(stored.body ?? "");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const isWebhook = channel.type === "webhook";

  const chooseKind = (next: TemplateKind) => {
    setKind(next);
    setTitle(channel.templates[next]?.title ?? "");
    setBody(channel.templates[next]?.body ?? "");
    setError(null);
  };

  const save = async (parts: { title: string; body: string }, event?: FormEvent) => {
    event?.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const templates = { ...channel.templates, [kind]: parts };
      const reply = await updateChannel(channel.id, { templates });
      onSaved(reply.channel);
      setTitle(parts.title);
      setBody(parts.body);
      toast.success(t(parts.title || parts.body ? "notifications.templates.saved" : "notifications.templates.resetDone"));
    } catch (err) {
      const b = err instanceof ApiError ? err.body : {};
      const message = err instanceof ApiError && err.code === "TEMPLATE_INVALID" && typeof b.detail === "string"
        ? templateProblemText(t, { message: b.detail, line: (b.line as number | null) ?? undefined, column: (b.column as number | null) ?? undefined }, String(b.field ?? "").endsWith(".title") ? "title" : "body")
        : errorMessage(err, t("notifications.templates.saveFailed"));
      setError(message);
      toast.error(message);
    } finally {
      setSaving(false);
    }
  };

  const customised = (k: TemplateKind) => Boolean(channel.templates[k]?.title || channel.templates[k]?.body);
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="min-w-0 space-y-6">
        <Card className="p-4 sm:p-6">
          <form onSubmit={(e) => void save({ title, body }, e)} noValidate className="space-y-4">
            <p className="text-sm text-slate-600">{t("notifications.templates.intro")}</p>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={t("notifications.templates.channel")}>
                {(id) => (
                  <SelectInput id={id} value={channel.id} onChange={(e) => onChannel(Number(e.target.value))} data-testid="template-channel">
                    {channels.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name} ({t(`notifications.types.${c.type}`)})
                      </option>
                    ))}
                  </SelectInput>
                )}
              </Field>
              <Field label={t("notifications.templates.kind")}>
                {(id) => (
                  <SelectInput id={id} value={kind} onChange={(e) => chooseKind(e.target.value as TemplateKind)} data-testid="template-kind">
                    {TEMPLATE_KINDS.map((k) => (
                      <option key={k} value={k}>
                        {t(`notifications.events.${k}`)}
                        {customised(k) ? ` · ${t("notifications.templates.custom")}` : ""}
                      </option>
                    ))}
                  </SelectInput>
                )}
              </Field>
            </div>
            {customised(kind) && (
              <p data-testid="template-custom" className="text-xs font-medium text-indigo-700">
                {t("notifications.templates.customHint")}
              </p>
            )}
            <Field label={t("notifications.templates.titleLabel")} hint={t("notifications.templates.titleHint")}>
              {(id) => <TextInput id={id} value={title} maxLength={500} spellCheck={false} onChange={(e) => setTitle(e.target.value)} className="font-mono text-sm" data-testid="template-title" />}
            </Field>
            <Field label={t(isWebhook ? "notifications.templates.jsonBodyLabel" : "notifications.templates.bodyLabel")} hint={t("notifications.templates.bodyHint", { code: "{{ body }}" })}>
              {(id) => (
                <textarea id={id} rows={8} value={body} maxLength={10_000} spellCheck={false} onChange={(e) => setBody(e.target.value)} className={`${TEXTAREA} font-mono`} data-testid="template-body" />
              )}
            </Field>
            {isWebhook && (
              <p data-testid="template-json-hint" className="text-xs text-slate-500">
                {t("notifications.templates.jsonHint", { code: '{"name": {{ target.name }}}' })}
              </p>
            )}
            {error && (
              <p role="alert" data-testid="template-error" className="text-sm text-red-600">
                {error}
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              <EditorOnly>
                <Button type="submit" busy={saving} data-testid="template-save">
                  {t("notifications.templates.save")}
                </Button>
                <Button variant="secondary" disabled={saving || !customised(kind)} onClick={() => void save({ title: "", body: "" })} data-testid="template-reset">
                  {t("notifications.templates.reset")}
                </Button>
              </EditorOnly>
            </div>
          </form>
        </Card>
        <Preview type={channel.type} kind={kind} title={title} body={body} />
      </div>
      <TemplateVariables />
    </div>
  );
}

type PreviewState = Record<NotificationLanguage, { title: PreviewPart; body: PreviewPart } | null>;

/** The sample event of the kind through the draft, in both languages, refreshed a moment after typing stops. */
function Preview({ type, kind, title, body }: { type: PublicChannel["type"]; kind: TemplateKind; title: string; body: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<PreviewState>({ "zh-CN": null, "en-US": null });
  const [failed, setFailed] = useState(false);
  const [checkType, setCheckType] = useState<SampleCheckType>("http");
  const aboutMonitor = MONITOR_KINDS.includes(kind);
  const input = useMemo(() => ({ type, kind, title, body, ...(aboutMonitor ? { checkType } : {}) }), [type, kind, title, body, aboutMonitor, checkType]);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      Promise.all(LANGS.map((lang) => previewTemplate({ ...input, lang })))
        .then(([zh, en]) => {
          if (!live) return;
          setShown({ "zh-CN": { title: zh!.title, body: zh!.body }, "en-US": { title: en!.title, body: en!.body } });
          setFailed(false);
        })
        .catch(() => live && setFailed(true));
    }, PREVIEW_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [input]);

  return (
    <Card className="p-4 sm:p-6">
      <h3 className="text-sm font-semibold text-slate-900">{t("notifications.templates.preview")}</h3>
      <p className="mt-0.5 text-xs text-slate-500">{t("notifications.templates.previewHint")}</p>
      {aboutMonitor && (
        <div className="mt-3 max-w-xs">
          <Field label={t("notifications.templates.sample")}>
            {(id) => (
              <SelectInput id={id} value={checkType} onChange={(e) => setCheckType(e.target.value as SampleCheckType)} data-testid="template-sample">
                {SAMPLE_CHECK_TYPES.map((c) => (
                  <option key={c} value={c}>
                    {t(`monitors.types.${c}`)}
                  </option>
                ))}
              </SelectInput>
            )}
          </Field>
        </div>
      )}
      {failed && <p className="mt-3 text-sm text-red-600">{t("notifications.templates.previewFailed")}</p>}
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        {LANGS.map((lang) => {
          const part = shown[lang];
          const problem = part?.title.problem ? { problem: part.title.problem, part: "title" as const } : part?.body.problem ? { problem: part.body.problem, part: "body" as const } : null;
          return (
            <div key={lang} data-testid={`template-preview-${lang}`} className="min-w-0 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200">
              <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{t(`notifications.templates.lang.${lang}`)}</p>
              {problem ? (
                <p data-testid={`template-preview-${lang}-problem`} className="mt-2 text-sm text-red-600">
                  {templateProblemText(t, problem.problem, problem.part)}
                </p>
              ) : (
                <>
                  <p data-testid={`template-preview-${lang}-title`} className="mt-2 break-words text-sm font-semibold text-slate-900">
                    {part?.title.text ?? "…"}
                  </p>
                  <pre data-testid={`template-preview-${lang}-body`} className="mt-1 whitespace-pre-wrap break-words font-sans text-sm text-slate-700">
                    {type === "webhook" ? prettyJson(part?.body.text ?? "") : (part?.body.text ?? "")}
                  </pre>
                </>
              )}
            </div>
          );
        })}
      </div>
    </Card>
  );
}

/** A webhook body laid out for reading (it is sent as rendered). */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
