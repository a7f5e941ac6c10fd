// Web Push as one service: the devices (store.ts), the server's VAPID keys (vapid.ts), and what the webpush provider
// reaches through SendContext.push (server/notifications/providers/webpush.ts). No timers: nothing to start or stop.
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { first, type Db } from "../db/database";
import { ALLOW_PRIVATE, type TargetPolicy } from "../net/targets";
import type { PushContext } from "../notifications/providers/provider";
import type { SubscriptionRules } from "./input";
import { createPushStore } from "./store";
import { loadVapidKeys, type VapidKeys } from "./vapid";

export interface PushServiceOptions {
  db: Db;
  now?: () => number;
  /** --public-url: an https one is the VAPID contact (`sub`) push services see. */
  publicUrl?: string;
  /** The address policy endpoints are checked against when a device subscribes (sends check it again). */
  targets?: TargetPolicy;
  /** Tests only: devices may subscribe with an http://127.0.0.1 endpoint (a local push service). */
  allowLoopbackHttp?: boolean;
}

export function createPushService({ db, now = Date.now, publicUrl, targets = ALLOW_PRIVATE, allowLoopbackHttp = false }: PushServiceOptions) {
  const store = createPushStore(db, now);
  let keys: Promise<VapidKeys> | null = null;
  // Read (or made) once per process; a failed read is tried again on the next use.
  const vapid = () =>
    (keys ??= loadVapidKeys(db).catch((e) => {
      keys = null;
      throw e;
    }));

  /**
   * Who push services may contact about our messages (RFC 8292 §2.1): the public address when it is https, else the
   * first admin's e-mail, else a placeholder (some push services refuse a sub they cannot use: set --public-url).
   */
  async function subject(): Promise<string> {
    if (publicUrl) {
      const url = new URL(publicUrl);
      if (url.protocol === "https:" && url.hostname !== "localhost") return url.origin;
    }
    const { users } = db.t;
    const admin = await first(db.orm.select({ email: users.email }).from(users).where(and(eq(users.role, "admin"), isNotNull(users.email))).orderBy(asc(users.id)).limit(1));
    return admin?.email ? `mailto:${admin.email}` : "mailto:vigil@localhost";
  }

  const context: PushContext = {
    devices: (to) => store.devices(to),
    vapid: async () => ({ subject: await subject(), ...(await vapid()) }),
    record: (id, outcome) => store.record(id, outcome),
  };

  return {
    store,
    /** What the webpush provider is given (SendContext.push). */
    context,
    /** The key browsers subscribe with (PushManager.subscribe's applicationServerKey). */
    publicKey: async () => (await vapid()).publicKey,
    rules: { policy: targets, allowLoopbackHttp } satisfies SubscriptionRules,
  };
}

export type PushService = ReturnType<typeof createPushService>;
