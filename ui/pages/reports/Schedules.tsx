// The /reports page's "Monthly mail" card: reports mailed every month (the previous calendar month's, in a zone)
// through an SMTP channel. Editors make one from the report chosen in the form above (its target and zone), change its
// recipients, channel, language and whether it runs, send last month's now, or delete it; viewers see the list.
//
// data-testids: `report-schedules`, `schedule-form`, `schedule-name`, `schedule-recipients`, `schedule-channel`,
//   `schedule-language`, `schedule-enabled`, `schedule-submit`, `schedule-cancel`, `schedule-no-smtp`, `schedule-row`
//   (data-id), `schedule-target`, `schedule-recipients-list`, `schedule-zone`, `schedule-state`, `schedule-error`,
//   `schedule-edit`, `schedule-send`, `schedule-delete`, `schedules-empty`.
import { useCallback, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { listChannels } from "../../api/notifications";
import {
  createReportSchedule,
  deleteReportSchedule,
  listReportSchedules,
  REPORT_MAIL_MAX_ATTEMPTS,
  sendReportSchedule,
  updateReportSchedule,
  type ReportSchedule,
  type ReportTargetKind,
} from "../../api/reports";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { Field, FormMessage, SelectInput, TextInput, Toggle } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useFormatDateTime } from "../../components/time";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useLoad } from "../../components/useLoad";
import { canEdit } from "../../state/session";

type Language = ReportSchedule["language"];
const LANGUAGES: Language[] = ["zh-CN", "en-US"];

interface Draft {
  name: string;
  recipients: string;
  channelId: string;
  language: Language;
  enabled: boolean;
}

async function load() {
  const [{ schedules }, { channels }] = await Promise.all([listReportSchedules(), listChannels()]);
  return { schedules, smtp: channels.filter((c) => c.type === "smtp").map((c) => ({ id: c.id, name: c.name })) };
}

/** Addresses as typed: separated by commas, semicolons, spaces or lines. */
const addresses = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

export function Schedules({ kind, targetRef, zone }: { kind: ReportTargetKind; targetRef: string; zone: string }) {
  const { t, i18n } = useTranslation();
  const data = useLoad(useCallback(load, []), t("reports.schedules.loadFailed"));
  const [editing, setEditing] = useState<ReportSchedule | "new" | null>(null);
  const [sending, setSending] = useState<number | null>(null);
  const format = useFormatDateTime();
  const remove = useDeleteConfirmation<ReportSchedule>({
    section: "reports.schedules",
    message: (s) => t("reports.schedules.confirmDelete.message", { name: s.name }),
    remove: deleteReportSchedule,
    onDeleted: (id) => data.update((d) => ({ ...d, schedules: d.schedules.filter((s) => s.id !== id) })),
  });

  const send = async (s: ReportSchedule) => {
    setSending(s.id);
    try {
      const { period } = await sendReportSchedule(s.id);
      toast.success(t("reports.schedules.sent", { period }));
    } catch (err) {
      toast.error(errorMessage(err, t("reports.schedules.sendFailed")));
    } finally {
      setSending(null);
    }
  };

  const saved = (s: ReportSchedule) => {
    data.update((d) => ({ ...d, schedules: d.schedules.some((x) => x.id === s.id) ? d.schedules.map((x) => (x.id === s.id ? s : x)) : [...d.schedules, s] }));
    setEditing(null);
  };

  return (
    <Card className="mt-6 print:hidden" data-testid="report-schedules">
      <CardHeader title={t("reports.schedules.title")} description={t("reports.schedules.description")} />
      <div className="space-y-4 px-5 py-5 sm:px-6">
        {data.state.phase === "loading" && <LoadingMessage data-testid="schedules-loading">{t("common.loading")}</LoadingMessage>}
        {data.state.phase === "error" && <LoadError message={data.state.message} onRetry={data.reload} inline data-testid="schedules-error" />}
        {data.state.phase === "loaded" && (
          <>
            {data.state.data.schedules.length === 0 ? (
              <p className="text-sm text-slate-500" data-testid="schedules-empty">{t("reports.schedules.none")}</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {data.state.data.schedules.map((s) => (
                  <li key={s.id} className="flex flex-wrap items-start justify-between gap-3 py-3" data-testid="schedule-row" data-id={s.id}>
                    <div className="min-w-0 space-y-0.5 text-sm">
                      <p className="font-medium text-slate-900">{s.name}</p>
                      <p className="text-slate-600" data-testid="schedule-target">
                        {t(`reports.kinds.${s.targetKind}`)}: {s.targetName ?? t("reports.schedules.targetGone", { ref: s.targetRef })}
                        {" · "}
                        <span data-testid="schedule-zone">{s.zone}</span>
                        {" · "}
                        {t(`notifications.templates.lang.${s.language}`)}
                      </p>
                      <p className="break-all text-slate-600" data-testid="schedule-recipients-list">{s.recipients.join(", ")}</p>
                      <p className="text-slate-500" data-testid="schedule-state">
                        {!s.enabled
                          ? t("reports.schedules.paused")
                          : s.lastSentAt !== null
                            ? t("reports.schedules.lastSent", { period: s.lastPeriod, time: format(s.lastSentAt) })
                            : t("reports.schedules.notYet")}
                      </p>
                      {s.lastError && <p className="break-all text-red-600" data-testid="schedule-error">{t("reports.schedules.lastError", { error: s.lastError })}</p>}
                      {s.retryAfter !== null && (
                        <p className="text-amber-700" data-testid="schedule-retry">
                          {t("reports.schedules.retrying", { attempt: s.retryAttempts + 1, max: REPORT_MAIL_MAX_ATTEMPTS, time: format(s.retryAfter) })}
                        </p>
                      )}
                    </div>
                    {canEdit.value && (
                      <div className="flex flex-wrap gap-2">
                        <Button size="sm" variant="secondary" onClick={() => setEditing(s)} data-testid="schedule-edit">{t("common.edit")}</Button>
                        <Button size="sm" variant="secondary" busy={sending === s.id} onClick={() => void send(s)} data-testid="schedule-send">{t("reports.schedules.sendNow")}</Button>
                        <Button size="sm" variant="dangerGhost" busy={remove.deletingId === s.id} onClick={() => remove.ask(s)} data-testid="schedule-delete">{t("common.delete")}</Button>
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {canEdit.value &&
              (editing === null ? (
                <Button variant="secondary" onClick={() => setEditing("new")} disabled={!targetRef} data-testid="schedule-new">{t("reports.schedules.new")}</Button>
              ) : (
                <ScheduleForm
                  key={editing === "new" ? "new" : editing.id}
                  editing={editing === "new" ? null : editing}
                  choice={{ kind, targetRef, zone }}
                  smtp={data.state.data.smtp}
                  language={(LANGUAGES as string[]).includes(i18n.language) ? (i18n.language as Language) : "zh-CN"}
                  onSaved={saved}
                  onCancel={() => setEditing(null)}
                />
              ))}
          </>
        )}
      </div>
      {remove.dialog}
    </Card>
  );
}

function ScheduleForm(props: {
  editing: ReportSchedule | null;
  choice: { kind: ReportTargetKind; targetRef: string; zone: string };
  smtp: { id: number; name: string }[];
  language: Language;
  onSaved: (s: ReportSchedule) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { editing, choice, smtp } = props;
  const [draft, setDraft] = useState<Draft>(() =>
    editing
      ? { name: editing.name, recipients: editing.recipients.join(", "), channelId: String(editing.channelId), language: editing.language, enabled: editing.enabled }
      : { name: "", recipients: "", channelId: smtp[0] ? String(smtp[0].id) : "", language: props.language, enabled: true },
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    const fields = { name: draft.name, recipients: addresses(draft.recipients), channelId: Number(draft.channelId), language: draft.language, enabled: draft.enabled };
    try {
      const { schedule } = editing
        ? await updateReportSchedule(editing.id, fields)
        : await createReportSchedule({ ...fields, targetKind: choice.kind, targetRef: choice.targetRef, zone: choice.zone });
      toast.success(t(editing ? "reports.schedules.saved" : "reports.schedules.created"));
      props.onSaved(schedule);
    } catch (err) {
      setError(errorMessage(err, t("reports.schedules.saveFailed")));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="space-y-4 rounded-lg border border-slate-200 p-4" onSubmit={(e) => void submit(e)} data-testid="schedule-form">
      <p className="text-sm text-slate-600">
        {editing
          ? t("reports.schedules.editing", { kind: t(`reports.kinds.${editing.targetKind}`), target: editing.targetName ?? editing.targetRef, zone: editing.zone })
          : t("reports.schedules.fromChoice", { kind: t(`reports.kinds.${choice.kind}`), zone: choice.zone })}
      </p>
      {smtp.length === 0 && <FormMessage kind="error"><span data-testid="schedule-no-smtp">{t("reports.schedules.noSmtp")}</span></FormMessage>}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("reports.schedules.name")}>
          {(id) => <TextInput id={id} value={draft.name} maxLength={100} required placeholder={t("reports.schedules.namePlaceholder")} onChange={(e) => set({ name: e.target.value })} data-testid="schedule-name" />}
        </Field>
        <Field label={t("reports.schedules.recipients")} hint={t("reports.schedules.recipientsHint")}>
          {(id) => <TextInput id={id} value={draft.recipients} required onChange={(e) => set({ recipients: e.target.value })} data-testid="schedule-recipients" />}
        </Field>
        <Field label={t("reports.schedules.channel")}>
          {(id) => (
            <SelectInput id={id} value={draft.channelId} required onChange={(e) => set({ channelId: e.target.value })} data-testid="schedule-channel">
              {smtp.map((c) => <option key={c.id} value={String(c.id)}>{c.name}</option>)}
            </SelectInput>
          )}
        </Field>
        <Field label={t("reports.schedules.language")}>
          {(id) => (
            <SelectInput id={id} value={draft.language} onChange={(e) => set({ language: e.target.value as Language })} data-testid="schedule-language">
              {LANGUAGES.map((l) => <option key={l} value={l}>{t(`notifications.templates.lang.${l}`)}</option>)}
            </SelectInput>
          )}
        </Field>
      </div>
      {editing && <Toggle name="enabled" label={t("reports.schedules.enabled")} checked={draft.enabled} onChange={(enabled) => set({ enabled })} data-testid="schedule-enabled" />}
      <FormMessage kind="error">{error}</FormMessage>
      <div className="flex gap-2">
        <Button type="submit" busy={busy} disabled={smtp.length === 0} data-testid="schedule-submit">{editing ? t("common.save") : t("reports.schedules.create")}</Button>
        <Button variant="ghost" onClick={props.onCancel} data-testid="schedule-cancel">{t("common.cancel")}</Button>
      </div>
    </form>
  );
}
