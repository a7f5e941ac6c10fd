// One channel's delivery log: the last messages, newest first, each with its time, what it was about, the event(s) and
// the outcome (sent; failed with the provider's error; pending with its attempts and next try). Refreshes itself while
// open.
//
// data-testids: `channel-log-{channelId}` (the panel), `channel-log-loading-{channelId}`, `channel-log-error-{channelId}`,
//   `channel-log-empty-{channelId}`, `channel-log-refresh-{channelId}`, `delivery-{deliveryId}` (a message),
//   `delivery-status-{deliveryId}` (data-status="sent|failed|pending"), `delivery-error-{deliveryId}`.
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors";
import { DELIVERY_LOG_LIMIT, listDeliveries, type Delivery } from "../../api/notifications";
import { Button } from "../../components/Button";
import { usePolling } from "../../components/hooks";
import { RefreshIcon } from "../../components/icons";
import { Time } from "../../components/time";
import { eventKinds } from "./model";
import { Badge } from "./parts";

/** How often an open log refreshes (faster while something is still pending). */
const POLL_MS = 15_000;
const POLL_PENDING_MS = 5_000;
/** Targets named per message before "+N more". */
const NAMES_SHOWN = 3;

type LogState = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; deliveries: Delivery[] };

/** `refreshKey` changes when the page knows something new was sent (a test message): the log reloads. */
export function DeliveryLog({ channelId, refreshKey }: { channelId: number; refreshKey: number }) {
  const { t } = useTranslation();
  const [state, setState] = useState<LogState>({ phase: "loading" });
  const [refreshing, setRefreshing] = useState(false);
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );

  const load = useCallback(
    async (quiet: boolean) => {
      if (!quiet) setRefreshing(true);
      try {
        const reply = await listDeliveries(channelId);
        if (live.current) setState({ phase: "loaded", deliveries: reply.deliveries ?? [] });
      } catch (err) {
        const message = errorMessage(err, t("notifications.log.fetchFailed"));
        // A failed background refresh keeps the lines shown.
        if (live.current) setState((s) => (quiet && s.phase === "loaded" ? s : { phase: "error", message }));
      } finally {
        if (live.current) setRefreshing(false);
      }
    },
    [channelId, t],
  );

  useEffect(() => {
    void load(false);
  }, [load, refreshKey]);

  const pending = state.phase === "loaded" && state.deliveries.some((d) => d.status === "pending");
  usePolling(() => load(true), pending ? POLL_PENDING_MS : POLL_MS);

  return (
    <div data-testid={`channel-log-${channelId}`} className="rounded-lg border border-slate-200 bg-slate-50/60">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-3 py-2 sm:px-4">
        <div className="min-w-0">
          <h3 className="text-sm font-semibold text-slate-800">{t("notifications.log.title")}</h3>
          <p className="text-xs text-slate-500">{t("notifications.log.hint", { count: DELIVERY_LOG_LIMIT })}</p>
        </div>
        <Button variant="ghost" size="sm" busy={refreshing} onClick={() => void load(false)} data-testid={`channel-log-refresh-${channelId}`}>
          {!refreshing && <RefreshIcon className="size-4" />}
          {t("notifications.log.refresh")}
        </Button>
      </div>
      {state.phase === "loading" && (
        <p role="status" data-testid={`channel-log-loading-${channelId}`} className="px-4 py-6 text-center text-sm text-slate-500">
          {t("notifications.log.loading")}
        </p>
      )}
      {state.phase === "error" && (
        <p role="alert" data-testid={`channel-log-error-${channelId}`} className="px-4 py-6 text-center text-sm text-red-600">
          {state.message}
        </p>
      )}
      {state.phase === "loaded" && state.deliveries.length === 0 && (
        <p data-testid={`channel-log-empty-${channelId}`} className="px-4 py-6 text-center text-sm text-slate-500">
          {t("notifications.log.empty")}
        </p>
      )}
      {state.phase === "loaded" && state.deliveries.length > 0 && (
        <ul className="divide-y divide-slate-200">
          {state.deliveries.map((d) => (
            <DeliveryLine key={d.id} delivery={d} />
          ))}
        </ul>
      )}
    </div>
  );
}

function DeliveryLine({ delivery: d }: { delivery: Delivery }) {
  const { t } = useTranslation();
  const names = [...new Set(d.events.map((e) => (e.targetType === "channel" ? t("notifications.log.channelTarget") : e.targetName)))];
  const kinds = eventKinds(d.events);
  return (
    <li data-testid={`delivery-${d.id}`} className="grid gap-x-4 gap-y-1 px-3 py-2.5 text-sm sm:grid-cols-[9rem_minmax(0,1fr)_minmax(0,1.2fr)] sm:px-4">
      <span className="text-xs text-slate-500 tabular-nums sm:pt-0.5">
        <Time at={d.createdAt} />
      </span>
      <div className="min-w-0">
        <p className="truncate text-slate-800" title={names.join(", ")}>
          {names.slice(0, NAMES_SHOWN).join(", ")}
          {names.length > NAMES_SHOWN && <span className="ml-1 text-xs text-slate-500">{t("notifications.log.more", { count: names.length - NAMES_SHOWN })}</span>}
        </p>
        <p className="truncate text-xs text-slate-500">
          {kinds.map((k) => t(`notifications.events.${k}`)).join(" · ")}
          {d.events.length > 1 && <> · {t("notifications.log.eventsCount", { count: d.events.length })}</>}
        </p>
      </div>
      <div className="min-w-0">
        <span data-testid={`delivery-status-${d.id}`} data-status={d.status} className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
          {d.status === "sent" && <Badge tone="green">{t("notifications.log.sent")}</Badge>}
          {d.status === "failed" && <Badge tone="red">{t("notifications.log.failed")}</Badge>}
          {d.status === "pending" && <Badge tone="amber">{t("notifications.log.pending")}</Badge>}
          {d.status === "sent" && d.sentAt !== null && (
            <span className="text-xs text-slate-500">
              {t("notifications.log.sentAt")}{" "}
              <Time at={d.sentAt} style="time" />
            </span>
          )}
          {d.status !== "sent" && d.attempts > 0 && <span className="text-xs text-slate-500">{t("notifications.log.attempts", { count: d.attempts })}</span>}
          {d.status === "pending" && d.nextAttemptAt !== null && (
            <span className="text-xs text-slate-500">
              {t("notifications.log.nextTry")}{" "}
              <Time at={d.nextAttemptAt} style="time" />
            </span>
          )}
        </span>
        {d.error && (
          <p data-testid={`delivery-error-${d.id}`} className="mt-1 break-words text-xs text-red-700 [overflow-wrap:anywhere]">
            {d.error}
          </p>
        )}
      </div>
    </li>
  );
}
