// Notifications as one service: the store, the persistent outbox that sends, and the rules that listen to the bus.
import type { Db } from "../db/database";
import type { EventBus } from "../events";
import { silentLogger, type Logger } from "../log";
import { ALLOW_PRIVATE, guardedFetch, hostProblem, type TargetPolicy } from "../net/targets";
import type { AckLinks } from "../problems/links";
import { createAlertStore } from "./alerts";
import { createOutbox } from "./outbox";
import type { SendContext } from "./providers/provider";
import { createRules, type Decides, type RulesOptions } from "./rules";
import { createNotificationStore } from "./store";

export interface NotificationServiceOptions {
  db: Db;
  bus: EventBus;
  log?: Logger;
  /** Provider hosts, fetch and the per-request timeout; tests point them at local fakes. */
  send?: Partial<SendContext>;
  monitorNow?: RulesOptions["monitorNow"];
  dependentsOf?: RulesOptions["dependentsOf"];
  agentNow?: RulesOptions["agentNow"];
  inMaintenance?: RulesOptions["inMaintenance"];
  now?: () => number;
  /** Which addresses channels may be saved with and send to (server/net/targets.ts); private ones by default. */
  targets?: TargetPolicy;
  /** This node's name in the outbox's claims (several nodes may share one PostgreSQL database). */
  node?: string;
  /**
   * Which node acts, when several share the database (server/cluster/service.ts): agent threshold alerts are judged
   * by the agent's owner, reminders by the leader. Status changes carry `remote` instead. Alone, this node does all.
   */
  decides?: Decides;
  /**
   * The instance's public address (--public-url): templates link to the target's page with it, and alerts carry a
   * signed link acknowledging their problem (`ackLinks`). Without it, alerts carry no such link.
   */
  publicUrl?: string;
  /** Signs acknowledgement links (server/problems/links.ts). */
  ackLinks?: Pick<AckLinks, "sign">;
  /** How long a minute of the reminder settings is (60 000; real-clock tests shorten it). */
  minuteMs?: number;
  escalates?: RulesOptions["escalates"];
}

/** Every provider request gives up after this long (then the outbox retries with backoff). */
export const SEND_TIMEOUT_MS = 10_000;

export function createNotificationService({ db, bus, log = silentLogger, send = {}, monitorNow, dependentsOf, agentNow, inMaintenance, now = Date.now, targets = ALLOW_PRIVATE, node, decides, publicUrl, ackLinks, minuteMs, escalates }: NotificationServiceOptions) {
  const store = createNotificationStore(db, now, () => bus.emit("settings.change", { area: "notifications" }), targets);
  bus.on("settings.change", (e) => e.remote && e.area === "notifications" && store.dropCaches());
  const ctx: SendContext = {
    // Provider requests never follow redirects (http.ts), so checking the first address covers them.
    fetch: guardedFetch(targets, send.fetch ?? fetch),
    timeoutMs: send.timeoutMs ?? SEND_TIMEOUT_MS,
    endpoints: send.endpoints ?? { telegram: "https://api.telegram.org", resend: "https://api.resend.com" },
    hostProblem: send.hostProblem ?? ((host) => hostProblem(host, targets)),
    now: send.now ?? now,
    ...(send.push ? { push: send.push } : {}),
  };
  const alerts = createAlertStore({ db, bus, nameOf: (type, id) => (type === "monitor" ? monitorNow?.(id)?.name : agentNow?.(id)?.name) });
  const base = publicUrl?.replace(/\/+$/, "");
  const ackUrl = base && ackLinks ? async (ref: Parameters<AckLinks["sign"]>[0]) => `${base}/ack/${await ackLinks.sign(ref)}` : undefined;
  const outbox = createOutbox({ db, store, ctx, log, now, node, publicUrl, ackUrl });
  const rules = createRules({ bus, store, alerts, outbox, monitorNow, dependentsOf, agentNow, inMaintenance, log, now, decides, minuteMs, escalates });
  // The rules listen from the start (events are queued durably even before the sender runs).
  rules.start();
  return {
    store,
    /** The open alerts and their acknowledgements (server/problems/ reads and acknowledges them). */
    alerts,
    outbox,
    /** How providers send (fetch under the address policy, timeout, hosts, Web Push): the device tests use it too. */
    ctx,
    publicUrl,
    rules,
    /** Resolves once the events received so far are handled (their notifications queued): for tests. */
    idle: () => rules.idle(),
    /** Whether it sends (between start() and stop()). */
    get running() {
      return outbox.running;
    },
    /** Starts sending (and resumes what a previous run left pending) and the reminders. */
    start() {
      outbox.start();
      rules.startReminders();
    },
    async stop() {
      rules.stop();
      await rules.idle();
      await outbox.stop();
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
