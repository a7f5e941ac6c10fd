// The devices people turned push on for (push_subscriptions): a person's own list, subscribing (an endpoint seen
// before is updated and moves to whoever subscribed it last), removing, and what the webpush provider asks for.
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { first, type Db } from "../db/database";
import { conflict } from "../http/errors";
import type { PushDevice } from "../notifications/providers/provider";
import type { Role } from "../users/public";
import type { ValidSubscription } from "./input";
import { PUSH_DEVICES_PER_USER_MAX, type PushDeviceView, type PushRecipient } from "./public";
import type { PushSubscriptionRow } from "./tables";

/** What the push service said last, kept short. */
const MAX_ERROR = 500;

export function toDeviceView(row: PushSubscriptionRow): PushDeviceView {
  return {
    id: row.id,
    label: row.label,
    endpoint: row.endpoint,
    service: new URL(row.endpoint).host,
    createdAt: row.createdAt,
    lastSuccessAt: row.lastSuccessAt,
    lastError: row.lastError,
  };
}

const toDevice = (row: Pick<PushSubscriptionRow, "id" | "userId" | "endpoint" | "p256dh" | "auth">): PushDevice => ({
  id: row.id,
  userId: row.userId,
  endpoint: row.endpoint,
  keys: { p256dh: row.p256dh, auth: row.auth },
});

export function createPushStore(db: Db, now: () => number = Date.now) {
  const { orm } = db;
  const { pushSubscriptions: subs, users } = db.t;
  const device = { id: subs.id, userId: subs.userId, endpoint: subs.endpoint, p256dh: subs.p256dh, auth: subs.auth };

  return {
    /** The person's devices, oldest first. */
    async list(userId: number): Promise<PushDeviceView[]> {
      return (await orm.select().from(subs).where(eq(subs.userId, userId)).orderBy(asc(subs.id))).map(toDeviceView);
    },

    /** One of the person's devices, ready to send to; undefined when it is not theirs (or gone). */
    async device(userId: number, id: number): Promise<(PushDevice & { label: string }) | undefined> {
      const row = await first(orm.select({ ...device, label: subs.label }).from(subs).where(and(eq(subs.id, id), eq(subs.userId, userId))));
      return row && { ...toDevice(row), label: row.label };
    },

    /**
     * Keeps a subscription for the person. A known endpoint (the same browser subscribing again, or another account
     * signed in on it) is updated and becomes this person's: a browser has one subscription per site, so its alerts
     * follow whoever turned push on last.
     */
    async subscribe(userId: number, input: ValidSubscription): Promise<{ device: PushDeviceView; created: boolean }> {
      return db.tx(async (tx) => {
        const known = await first(tx.select({ id: subs.id }).from(subs).where(eq(subs.endpoint, input.endpoint)));
        if (!known) {
          const [mine] = await tx.select({ n: count() }).from(subs).where(eq(subs.userId, userId));
          if (Number(mine?.n ?? 0) >= PUSH_DEVICES_PER_USER_MAX) {
            throw conflict("PUSH_DEVICES_LIMIT", `At most ${PUSH_DEVICES_PER_USER_MAX} devices per person: remove one you no longer use first`);
          }
        }
        const fields = { userId, p256dh: input.p256dh, auth: input.auth, label: input.label, lastError: null };
        // The upsert also covers another node inserting the same endpoint between the read and the write.
        const [row] = await tx
          .insert(subs)
          .values({ ...fields, endpoint: input.endpoint, createdAt: now() })
          .onConflictDoUpdate({ target: subs.endpoint, set: fields })
          .returning();
        return { device: toDeviceView(row!), created: !known };
      });
    },

    /** Removes one of the person's devices; false when it is not theirs (or already gone). */
    async remove(userId: number, id: number): Promise<boolean> {
      return (await orm.delete(subs).where(and(eq(subs.id, id), eq(subs.userId, userId))).returning({ id: subs.id })).length > 0;
    },

    /** The devices of these people, or of everyone with the role; disabled accounts get nothing. */
    async devices(to: { userIds?: number[]; role?: Role }): Promise<PushDevice[]> {
      const who = to.role ? eq(users.role, to.role) : to.userIds?.length ? inArray(subs.userId, to.userIds) : undefined;
      if (!who) return [];
      const rows = await orm
        .select(device)
        .from(subs)
        .innerJoin(users, eq(users.id, subs.userId))
        .where(and(who, eq(users.status, "active")))
        .orderBy(asc(subs.id));
      return rows.map(toDevice);
    },

    /** A send's outcome on the device: the time of a success, the error of a failure; a gone device is deleted. */
    async record(id: number, outcome: { ok: true } | { ok: false; error: string; gone?: boolean }): Promise<void> {
      if (outcome.ok) await orm.update(subs).set({ lastSuccessAt: now(), lastError: null }).where(eq(subs.id, id));
      else if (outcome.gone) await orm.delete(subs).where(eq(subs.id, id));
      else await orm.update(subs).set({ lastError: outcome.error.slice(0, MAX_ERROR) }).where(eq(subs.id, id));
    },

    /** Everyone a webpush channel may name, with how many devices each has turned push on for. */
    async recipients(): Promise<PushRecipient[]> {
      const rows = await orm
        .select({ id: users.id, username: users.username, role: users.role, devices: sql<number>`(SELECT count(*) FROM push_subscriptions s WHERE s.user_id = "users"."id")` })
        .from(users)
        .where(eq(users.status, "active"))
        .orderBy(sql`lower(${users.username})`);
      return rows.map((r) => ({ ...r, devices: Number(r.devices) }));
    },
  };
}

export type PushStore = ReturnType<typeof createPushStore>;
