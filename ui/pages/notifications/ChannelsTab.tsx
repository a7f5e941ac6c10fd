// The channels tab: every channel with its type, an enable switch, how its sends are going (failing with the last
// error, working, or nothing sent yet), Send test, its delivery log, edit and delete (with confirmation).
//
// data-testids: `channels-add`, `channels-loading`, `channels-error`, `channels-empty`, `channels-list`,
//   `channel-row-{id}`, `channel-name-{id}`, `channel-enabled-{id}` (checkbox), `channel-health-{id}`
//   (data-health="failing|failed|working|idle|disabled"), `channel-last-error-{id}` (the latest send's failure), `channel-test-{id}`,
//   `channel-log-toggle-{id}`, `channel-edit-{id}`, `channel-delete-{id}`, `channel-quiet-{id}` (its quiet hours).
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { deleteChannel, testChannel, updateChannel, type PublicChannel } from "../../api/notifications";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { usePolling } from "../../components/hooks";
import { PlusIcon } from "../../components/icons";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { Ago } from "../../components/time";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { ChannelFormDialog } from "./ChannelForm";
import { DeliveryLog } from "./DeliveryLog";
import { channelHealth, lastSendFailed } from "./model";
import { Badge } from "./parts";
import { QuietSummary } from "./QuietHours";
import { useChannels } from "./useChannels";
import { EditorOnly } from "../../components/guards";
import { canEdit } from "../../state/session";
import { ManagedBadge, useManagedMarks } from "../../components/Managed";

/** Health changes as alerts go out: the list refreshes itself this often. */
const POLL_MS = 20_000;

export function ChannelsTab() {
  const { t } = useTranslation();
  const { state, reload, put, remove } = useChannels();
  useManagedMarks();
  const [editing, setEditing] = useState<PublicChannel | "new" | null>(null);
  const [openLogs, setOpenLogs] = useState<ReadonlySet<number>>(new Set());
  const [logVersion, setLogVersion] = useState(0);
  usePolling(() => reload(true), POLL_MS);

  const { ask: askDelete, deletingId, dialog: deleteDialog } = useDeleteConfirmation<PublicChannel>({
    section: "notifications",
    message: (c) => t("notifications.confirmDelete.message", { name: c.name }),
    remove: deleteChannel,
    onDeleted: remove,
  });

  const toggleLog = (id: number) =>
    setOpenLogs((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  /** After a test send: fresh health, and an open log shows the test line. */
  const afterTest = async () => {
    await reload(true);
    setLogVersion((v) => v + 1);
  };

  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-5 py-4 sm:px-6">
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold text-slate-900">{t("notifications.channels.title")}</h2>
          <p className="mt-0.5 text-sm text-slate-500">{t("notifications.channels.description")}</p>
        </div>
        <EditorOnly>
          <Button onClick={() => setEditing("new")} data-testid="channels-add">
            <PlusIcon className="size-4" />
            {t("notifications.channels.add")}
          </Button>
        </EditorOnly>
      </div>
      {state.phase === "loading" && <LoadingMessage data-testid="channels-loading">{t("notifications.channels.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError data-testid="channels-error" message={state.message} onRetry={() => void reload()} />}
      {state.phase === "loaded" && state.data.length === 0 && (
        <p data-testid="channels-empty" className="px-6 py-12 text-center text-sm text-slate-500">
          {t("notifications.channels.empty")}
        </p>
      )}
      {state.phase === "loaded" && state.data.length > 0 && (
        <ul data-testid="channels-list" className="divide-y divide-slate-100">
          {state.data.map((c) => (
            <ChannelRow
              key={c.id}
              channel={c}
              logOpen={openLogs.has(c.id)}
              logVersion={logVersion}
              deleting={deletingId === c.id}
              onToggleLog={() => toggleLog(c.id)}
              onEdit={() => setEditing(c)}
              onDelete={() => askDelete(c)}
              onSaved={put}
              onTested={() => void afterTest()}
            />
          ))}
        </ul>
      )}
      <ChannelFormDialog
        target={editing}
        onClose={() => setEditing(null)}
        onSaved={(channel) => {
          put(channel);
          setEditing(null);
        }}
      />
      {deleteDialog}
    </Card>
  );
}

interface RowProps {
  channel: PublicChannel;
  logOpen: boolean;
  logVersion: number;
  deleting: boolean;
  onToggleLog: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onSaved: (channel: PublicChannel) => void;
  onTested: () => void;
}

function ChannelRow({ channel: c, logOpen, logVersion, deleting, onToggleLog, onEdit, onDelete, onSaved, onTested }: RowProps) {
  const { t } = useTranslation();
  // The switch moves at once; it goes back if the server refuses.
  const [switchingTo, setSwitchingTo] = useState<boolean | null>(null);
  const [testing, setTesting] = useState(false);

  const setEnabled = async (enabled: boolean) => {
    setSwitchingTo(enabled);
    try {
      const reply = await updateChannel(c.id, { enabled });
      onSaved(reply.channel);
      toast.success(t(enabled ? "notifications.channels.enabledOn" : "notifications.channels.enabledOff", { name: c.name }));
    } catch (err) {
      toast.error(`${t("notifications.channelSaveFailed")}: ${errorMessage(err, t("errors.fetchFailed"))}`);
    } finally {
      setSwitchingTo(null);
    }
  };

  const sendTest = async () => {
    setTesting(true);
    try {
      await testChannel(c.id);
      toast.success(t("notifications.channels.testSent", { name: c.name }));
    } catch (err) {
      toast.error(`${t("notifications.channels.testFailed")}: ${errorMessage(err, t("errors.fetchFailed"))}`);
    } finally {
      setTesting(false);
      onTested();
    }
  };

  const health = channelHealth(c);
  const failed = lastSendFailed(c);
  return (
    <li data-testid={`channel-row-${c.id}`} className="px-4 py-4 sm:px-6">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
        <div className="min-w-0 flex-1 basis-56">
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <span data-testid={`channel-name-${c.id}`} className="truncate font-medium text-slate-900">
              {c.name}
            </span>
            <ManagedBadge what="channel" id={c.id} testId={`channel-managed-${c.id}`} />
            <Badge tone="indigo">{t(`notifications.types.${c.type}`)}</Badge>
            <span data-testid={`channel-health-${c.id}`} data-health={health}>
              {health === "disabled" && <Badge tone="grey">{t("notifications.channels.disabled")}</Badge>}
              {health === "failing" && (
                <Badge tone="red" title={t("notifications.channels.failingTitle", { count: c.health.consecutiveFailures, error: c.health.lastError ?? "" })}>
                  {t("notifications.channels.failing")}
                </Badge>
              )}
              {health === "failed" && <Badge tone="amber">{t("notifications.channels.failed")}</Badge>}
              {health === "working" && <Badge tone="green">{t("notifications.channels.working")}</Badge>}
            </span>
          </div>
          {/* Once a send has failed, "nothing sent yet" would hide it: the failure is stated instead. */}
          {(c.health.lastSuccessAt !== null || c.health.lastFailureAt === null) && (
            <p className="mt-1 text-xs text-slate-500">
              {t("notifications.channels.lastSent")}: <Ago at={c.health.lastSuccessAt} never={t("notifications.channels.nothingSent")} />
            </p>
          )}
          {c.quietHours && (
            <p className="mt-1">
              <QuietSummary quietHours={c.quietHours} testId={`channel-quiet-${c.id}`} />
            </p>
          )}
          {failed && (
            <p data-testid={`channel-last-error-${c.id}`} className="mt-1 break-words text-xs text-red-700 [overflow-wrap:anywhere]">
              {t("notifications.channels.lastFailure")}: <Ago at={c.health.lastFailureAt} never="" />
              {c.health.lastError && ` — ${c.health.lastError}`}
            </p>
          )}
        </div>
        <label className="flex cursor-pointer items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={switchingTo ?? c.enabled}
            disabled={switchingTo !== null || !canEdit.value}
            onChange={(e) => void setEnabled(e.target.checked)}
            aria-label={t("notifications.channels.enabledLabel", { name: c.name })}
            data-testid={`channel-enabled-${c.id}`}
            className="size-4 cursor-pointer accent-indigo-600"
          />
          {t("notifications.channels.enabled")}
        </label>
        <div className="flex flex-wrap gap-2">
          <EditorOnly>
            <Button variant="secondary" size="sm" busy={testing} onClick={() => void sendTest()} data-testid={`channel-test-${c.id}`}>
              {testing ? t("notifications.channels.testing") : t("notifications.channels.test")}
            </Button>
          </EditorOnly>
          <Button variant="ghost" size="sm" aria-expanded={logOpen} onClick={onToggleLog} data-testid={`channel-log-toggle-${c.id}`}>
            {logOpen ? t("notifications.channels.hideLog") : t("notifications.channels.log")}
          </Button>
          <EditorOnly>
            <Button variant="secondary" size="sm" onClick={onEdit} data-testid={`channel-edit-${c.id}`}>
              {t("common.edit")}
            </Button>
            <Button variant="dangerGhost" size="sm" busy={deleting} onClick={onDelete} data-testid={`channel-delete-${c.id}`}>
              {t("common.delete")}
            </Button>
          </EditorOnly>
        </div>
      </div>
      {logOpen && (
        <div className="mt-3">
          <DeliveryLog channelId={c.id} refreshKey={logVersion} />
        </div>
      )}
    </li>
  );
}
