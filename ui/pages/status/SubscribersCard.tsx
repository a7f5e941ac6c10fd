// Admin: a status page's e-mail subscribers on its edit screen — how many, their addresses, removal. The server
// answers this list to admins only; other users do not see the card.
//
// data-testids: `subscribers-card`, `subscribers-count`, `subscribers-empty`, `subscriber-row` (data-confirmed),
//   `subscriber-remove`.
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useSignals } from "@preact/signals-react/runtime";
import { errorMessage } from "../../api/errors";
import { listSubscribers, removeSubscriber, type SubscriberList } from "../../api/subscribers";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useFormatDateTime } from "../../components/time";
import { useLoad } from "../../components/useLoad";
import { isAdmin } from "../../state/session";

export function SubscribersCard({ pageId }: { pageId: number }) {
  useSignals();
  if (!isAdmin.value) return null;
  return <SubscriberList pageId={pageId} />;
}

function SubscriberList({ pageId }: { pageId: number }) {
  const { t } = useTranslation();
  const format = useFormatDateTime();
  const fetch = useCallback((): Promise<SubscriberList> => listSubscribers(pageId), [pageId]);
  const { state, reload, update } = useLoad(fetch, t("statusPages.subscribers.fetchFailed"));

  const remove = async (id: number) => {
    try {
      await removeSubscriber(pageId, id);
      update((list) => {
        const gone = list.subscribers.find((s) => s.id === id);
        const subscribers = list.subscribers.filter((s) => s.id !== id);
        return { subscribers, confirmed: list.confirmed - (gone?.confirmed ? 1 : 0), pending: list.pending - (gone && !gone.confirmed ? 1 : 0) };
      });
      toast.success(t("statusPages.subscribers.removed"));
    } catch (err) {
      toast.error(errorMessage(err, t("statusPages.subscribers.removeFailed")));
      void reload(true);
    }
  };

  return (
    <Card data-testid="subscribers-card">
      <CardHeader title={t("statusPages.subscribers.title")} description={t("statusPages.subscribers.hint")} />
      <div className="px-5 py-4 sm:px-6">
        {state.phase === "loading" && <LoadingMessage data-testid="subscribers-loading">{t("common.loading")}</LoadingMessage>}
        {state.phase === "error" && <LoadError inline message={state.message} onRetry={() => void reload()} data-testid="subscribers-error" />}
        {state.phase === "loaded" && (
          <>
            <p data-testid="subscribers-count" className="text-sm font-medium text-slate-800">
              {t("statusPages.subscribers.count", { confirmed: state.data.confirmed, pending: state.data.pending })}
            </p>
            <p className="mt-1 text-xs text-slate-500">{t("statusPages.subscribers.offered")}</p>
            {state.data.subscribers.length === 0 ? (
              <p data-testid="subscribers-empty" className="mt-3 text-sm text-slate-500">
                {t("statusPages.subscribers.none")}
              </p>
            ) : (
              <ul className="mt-3 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
                {state.data.subscribers.map((s) => (
                  <li key={s.id} data-testid="subscriber-row" data-confirmed={s.confirmed} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2.5 sm:px-4">
                    <span className="min-w-0 flex-1 break-all text-sm text-slate-800">{s.email}</span>
                    <span className="text-xs text-slate-500">
                      {s.confirmed ? t("statusPages.subscribers.since", { time: format(s.confirmedAt ?? s.createdAt) }) : t("statusPages.subscribers.pending")}
                    </span>
                    <Button variant="dangerGhost" size="sm" onClick={() => void remove(s.id)} data-testid="subscriber-remove">
                      {t("statusPages.subscribers.remove")}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </Card>
  );
}
