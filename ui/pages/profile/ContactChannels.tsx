// The profile's "My contact channels" card: the person's own channels (e-mail, push, chat…) that escalation pages them
// through — list, add, edit (the channel form, scope "mine"), send a test, delete — and the "My quiet hours" card over
// all of them. Every signed-in person has both, viewers too.
//
// data-testids: `contacts-card`, `contacts-add`, `contacts-loading`, `contacts-error`, `contacts-empty`,
//   `contacts-list`, `contact-row` (data-channel-id), `contact-name`, `contact-health`, `contact-quiet`, `contact-test`,
//   `contact-edit`, `contact-delete`; `my-quiet-card`, `my-quiet…` (QuietHours.tsx), `my-quiet-save`.
import { useCallback, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { deleteMyChannel, getMyQuietHours, listMyChannels, saveMyQuietHours, testMyChannel } from "../../api/contacts";
import { errorMessage } from "../../api/errors";
import type { PublicChannel } from "../../api/notifications";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { FormMessage } from "../../components/form";
import { PlusIcon } from "../../components/icons";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useLoad } from "../../components/useLoad";
import { ChannelFormDialog } from "../notifications/ChannelForm";
import { channelHealth } from "../notifications/model";
import { Badge } from "../notifications/parts";
import { QuietHoursFields, QuietSummary } from "../notifications/QuietHours";
import { quietDraft, quietErrors, toQuietHours, type QuietDraft } from "../notifications/quietDraft";

const fetchChannels = async () => (await listMyChannels()).channels;

export function ContactChannelsCard() {
  const { t } = useTranslation();
  const { state, reload, update } = useLoad<PublicChannel[]>(fetchChannels, t("contacts.fetchFailed"));
  const [editing, setEditing] = useState<PublicChannel | "new" | null>(null);
  const [testing, setTesting] = useState<number | null>(null);
  const remove = useDeleteConfirmation<PublicChannel>({
    section: "contacts",
    message: (c) => t("contacts.confirmDelete.message", { name: c.name }),
    remove: deleteMyChannel,
    onDeleted: (id) => update((list) => list.filter((c) => c.id !== id)),
  });

  const test = async (c: PublicChannel) => {
    setTesting(c.id);
    try {
      await testMyChannel(c.id);
      toast.success(t("contacts.testSent", { name: c.name }));
    } catch (err) {
      toast.error(`${t("contacts.testFailed")}: ${errorMessage(err, t("errors.fetchFailed"))}`);
    } finally {
      setTesting(null);
      void reload(true); // its health shows the outcome
    }
  };

  return (
    <Card className="lg:col-span-2" data-testid="contacts-card">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-5 py-4 sm:px-6">
        <div className="min-w-0 flex-1 basis-64">
          <h2 className="text-base font-semibold text-slate-900">{t("contacts.title")}</h2>
          <p className="mt-0.5 text-sm text-slate-500">{t("contacts.subtitle")}</p>
        </div>
        <Button onClick={() => setEditing("new")} data-testid="contacts-add">
          <PlusIcon className="size-4" />
          {t("contacts.add")}
        </Button>
      </div>
      {state.phase === "loading" && <LoadingMessage data-testid="contacts-loading">{t("contacts.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError data-testid="contacts-error" message={state.message} onRetry={() => void reload()} />}
      {state.phase === "loaded" && state.data.length === 0 && (
        <p data-testid="contacts-empty" className="px-5 py-8 text-center text-sm text-slate-500 sm:px-6">
          {t("contacts.empty")}
        </p>
      )}
      {state.phase === "loaded" && state.data.length > 0 && (
        <ul data-testid="contacts-list" className="divide-y divide-slate-100">
          {state.data.map((c) => {
            const health = channelHealth(c);
            return (
              <li key={c.id} data-testid="contact-row" data-channel-id={c.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-6">
                <div className="min-w-0 flex-1 basis-56">
                  <p className="flex min-w-0 flex-wrap items-center gap-2">
                    <span data-testid="contact-name" className="truncate font-medium text-slate-900">
                      {c.name}
                    </span>
                    <Badge tone="indigo">{t(`notifications.types.${c.type}`)}</Badge>
                    <span data-testid="contact-health" data-health={health}>
                      {health === "disabled" && <Badge tone="grey">{t("contacts.disabled")}</Badge>}
                      {health === "failing" && <Badge tone="red">{t("contacts.failing")}</Badge>}
                    </span>
                  </p>
                  {c.quietHours && (
                    <p className="mt-0.5">
                      <QuietSummary quietHours={c.quietHours} testId="contact-quiet" />
                    </p>
                  )}
                  {c.health.lastError && c.health.lastFailureAt !== null && (c.health.lastSuccessAt === null || c.health.lastFailureAt > c.health.lastSuccessAt) && (
                    <p className="mt-0.5 break-words text-xs text-red-700 [overflow-wrap:anywhere]">
                      {t("contacts.lastFailure")}: {c.health.lastError}
                    </p>
                  )}
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button variant="secondary" size="sm" busy={testing === c.id} onClick={() => void test(c)} data-testid="contact-test">
                    {testing === c.id ? t("contacts.testing") : t("contacts.test")}
                  </Button>
                  <Button variant="secondary" size="sm" onClick={() => setEditing(c)} data-testid="contact-edit">
                    {t("common.edit")}
                  </Button>
                  <Button variant="dangerGhost" size="sm" busy={remove.deletingId === c.id} onClick={() => remove.ask(c)} data-testid="contact-delete">
                    {t("common.delete")}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <ChannelFormDialog
        scope="mine"
        target={editing}
        onClose={() => setEditing(null)}
        onSaved={(channel) => {
          update((list) => (list.some((c) => c.id === channel.id) ? list.map((c) => (c.id === channel.id ? channel : c)) : [...list, channel]));
          setEditing(null);
        }}
      />
      {remove.dialog}
    </Card>
  );
}

/** "My quiet hours": the person's own, over all their contact channels; off by default. */
export function MyQuietHoursCard() {
  const { t } = useTranslation();
  const fetch = useCallback(async () => quietDraft((await getMyQuietHours()).quietHours), []);
  const { state, reload, update } = useLoad<QuietDraft>(fetch, t("quietHours.mine.fetchFailed"));
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: "error" | "success"; text: string } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.phase !== "loaded") return;
    setSubmitted(true);
    setOutcome(null);
    if (Object.keys(quietErrors(state.data)).length) return;
    setSaving(true);
    try {
      const reply = await saveMyQuietHours(toQuietHours(state.data));
      update(() => quietDraft(reply.quietHours, state.data.timeZone));
      setSubmitted(false);
      setOutcome({ kind: "success", text: t("quietHours.mine.saved") });
    } catch (err) {
      setOutcome({ kind: "error", text: errorMessage(err, t("quietHours.mine.saveFailed")) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card className="lg:col-span-2" data-testid="my-quiet-card">
      <CardHeader title={t("quietHours.mine.title")} description={t("quietHours.mine.subtitle")} />
      {state.phase === "loading" && <LoadingMessage data-testid="my-quiet-loading">{t("quietHours.mine.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError data-testid="my-quiet-error" message={state.message} onRetry={() => void reload()} />}
      {state.phase === "loaded" && (
        <form onSubmit={submit} noValidate className="space-y-5 p-5 sm:p-6">
          <QuietHoursFields draft={state.data} errors={submitted ? quietErrors(state.data) : {}} onChange={(next) => update(() => next)} testId="my-quiet" />
          {outcome && <FormMessage kind={outcome.kind}>{outcome.text}</FormMessage>}
          <div className="flex justify-end">
            <Button type="submit" busy={saving} data-testid="my-quiet-save">
              {saving ? t("common.saving") : t("quietHours.mine.save")}
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
