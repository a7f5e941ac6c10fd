// Notifications as one service: the store, the persistent outbox that sends, and the rules that listen to the bus.
import type { Db } from "../db/open";
import type { EventBus } from "../events";
import { silentLogger, type Logger } from "../log";
import { ALLOW_PRIVATE, guardedFetch, type TargetPolicy } from "../net/targets";
import { createOutbox } from "./outbox";
import type { SendContext } from "./providers/provider";
import { createRules } from "./rules";
import { createNotificationStore } from "./store";

export interface NotificationServiceOptions {
  db: Db;
  bus: EventBus;
  log?: Logger;
  /** Provider hosts, fetch and the per-request timeout; tests point them at local fakes. */
  send?: Partial<SendContext>;
  monitorNow?: (id: number) => { name: string; down: boolean } | undefined;
  now?: () => number;
  /** Which addresses webhooks may reach (server/net/targets.ts); private ones by default. */
  targets?: TargetPolicy;
}

/** Every provider request gives up after this long (then the outbox retries with backoff). */
export const SEND_TIMEOUT_MS = 10_000;

export function createNotificationService({ db, bus, log = silentLogger, send = {}, monitorNow, now = Date.now, targets = ALLOW_PRIVATE }: NotificationServiceOptions) {
  const store = createNotificationStore(db, now);
  const ctx: SendContext = {
    // Provider requests never follow redirects (http.ts), so checking the first address covers them.
    fetch: guardedFetch(targets, send.fetch ?? fetch),
    timeoutMs: send.timeoutMs ?? SEND_TIMEOUT_MS,
    endpoints: send.endpoints ?? { telegram: "https://api.telegram.org", resend: "https://api.resend.com" },
    now: send.now ?? now,
  };
  const outbox = createOutbox({ db, store, ctx, log, now });
  const rules = createRules({ db, bus, store, outbox, monitorNow, log, now });
  // The rules listen from the start (events are queued durably even before the sender runs).
  rules.start();
  return {
    store,
    outbox,
    rules,
    /** Starts sending (and resumes what a previous run left pending). */
    start: () => outbox.start(),
    async stop() {
      rules.stop();
      await outbox.stop();
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
