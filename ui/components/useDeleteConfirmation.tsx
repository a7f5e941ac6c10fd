import { useCallback, useState, type ReactElement } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../api/errors";
import { ConfirmDialog } from "./ConfirmDialog";

interface DeleteConfirmation<T> {
  /** Opens the dialog for this item. */
  ask: (item: T) => void;
  /** The id being deleted while the request runs, else null (its row's delete button spins). */
  deletingId: number | null;
  /** The dialog: render it once in the page. */
  dialog: ReactElement;
}

/**
 * The delete flow every list shares: a dialog naming the item and saying it cannot be undone, the request, a toast for
 * either outcome. Texts come from `<section>.confirmDelete.{title,confirm}`, `<section>.deleted` and
 * `<section>.deleteFailed`; `message` words the question for one item (it names the item).
 */
export function useDeleteConfirmation<T extends { id: number }>(opts: {
  section: "users" | "monitors" | "agents" | "notifications" | "tokens" | "maintenance" | "incidents" | "statusPages" | "reports.schedules" | "push" | "escalation" | "oncall" | "contacts";
  message: (item: T) => string;
  remove: (id: number) => Promise<unknown>;
  onDeleted: (id: number) => void;
}): DeleteConfirmation<T> {
  const { t } = useTranslation();
  const [pending, setPending] = useState<T | null>(null); // asked to delete, not yet confirmed
  const [deletingId, setDeletingId] = useState<number | null>(null);
  const cancel = useCallback(() => setPending(null), []);
  const { section } = opts;

  const confirm = async () => {
    if (!pending) return;
    const id = pending.id;
    setDeletingId(id);
    try {
      await opts.remove(id);
      opts.onDeleted(id);
      toast.success(t(`${section}.deleted`));
    } catch (err) {
      toast.error(errorMessage(err, t(`${section}.deleteFailed`)));
    } finally {
      setDeletingId(null);
      setPending(null);
    }
  };

  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      title={t(`${section}.confirmDelete.title`)}
      message={pending ? opts.message(pending) : ""}
      confirmLabel={deletingId !== null ? t("common.deleting") : t(`${section}.confirmDelete.confirm`)}
      busy={deletingId !== null}
      onConfirm={() => void confirm()}
      onCancel={cancel}
    />
  );
  return { ask: setPending, deletingId, dialog };
}
