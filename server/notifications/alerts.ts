// The alert store: the rows of notification_alerts, each an open problem (server/problems/), and every write to them.
// The rules raise and clear alerts here, the reminder pass reads the unacknowledged ones, and acknowledging writes
// here; each change is told on the bus ("problem.change") so pages update and other nodes hear of it.
//
// Acknowledgement is one conditional UPDATE (`acked_at IS NULL`, and for a signed link the occurrence's `since`), so
// of two people acknowledging at once exactly one succeeds, on any node. A recovery deletes the row: the
// acknowledgement goes with it, and the next occurrence is a new row (a new `since`), unacknowledged.
import { and, eq, isNull, type SQL } from "drizzle-orm";
import { first, type Db } from "../db/database";
import type { EventBus } from "../events";
import type { AckVia, Problem } from "../problems/public";
import type { TargetType } from "./store";
import type { notificationAlerts } from "./tables";

export type AlertRow = typeof notificationAlerts.$inferSelect;

/** One open problem: a target and its condition ("down", "offline", "cpu", "disk:/data", "container:web:stopped"…). */
export interface AlertKey {
  targetType: TargetType;
  targetId: number;
  condition: string;
}

/** What an acknowledgement records. */
export interface AckRecord {
  at: number;
  /** The user's id (null for a signed link). */
  by: number | null;
  byName: string;
  via: AckVia;
  /** The channel a signed link came through (its name then). */
  channel: string | null;
}

/** Why an acknowledgement was not written: no such open problem, another occurrence than the link's, or done already. */
export type AckRefusal = { reason: "missing" } | { reason: "resolved" } | { reason: "acknowledged"; row: AlertRow };

/** Whether an open alert has been acknowledged: reminders (and, later, escalation steps) leave such an alert alone. */
export const isAcknowledged = (row: Pick<AlertRow, "ackedAt">) => row.ackedAt !== null;

export interface AlertStoreOptions {
  db: Db;
  bus: EventBus;
  /** A target's name as it is now (undefined: it no longer exists). */
  nameOf: (type: TargetType, id: number) => string | undefined;
}

export function createAlertStore({ db, bus, nameOf }: AlertStoreOptions) {
  const { orm } = db;
  const { notificationAlerts: alerts } = db.t;
  const where = (k: AlertKey) => and(eq(alerts.targetType, k.targetType), eq(alerts.targetId, k.targetId), eq(alerts.condition, k.condition));
  /** The filter of alerts nobody has acknowledged: the ones reminders (and escalation) act on. */
  const unacknowledged: SQL = isNull(alerts.ackedAt);

  /** A row as the API shows it; `name` when the caller knows it (a deleted target's last alert). */
  function toProblem(row: AlertRow, name = nameOf(row.targetType, row.targetId)): Problem {
    return {
      targetType: row.targetType,
      targetId: row.targetId,
      targetName: name ?? `#${row.targetId}`,
      condition: row.condition,
      since: row.since,
      lastNotifiedAt: row.lastNotifiedAt,
      ack:
        row.ackedAt === null
          ? null
          : { at: row.ackedAt, by: row.ackedByName ?? "", via: row.ackVia ?? "ui", channel: row.ackedChannel ?? null },
    };
  }

  const tell = (action: "raised" | "acknowledged" | "resolved", row: AlertRow, name?: string) => bus.emit("problem.change", { action, problem: toProblem(row, name) });

  return {
    isAcknowledged,
    unacknowledged,
    toProblem,

    find: (key: AlertKey): Promise<AlertRow | undefined> => first(orm.select().from(alerts).where(where(key))),

    /** Every open alert, by target. */
    all: (): Promise<AlertRow[]> => orm.select().from(alerts).orderBy(alerts.targetType, alerts.targetId, alerts.condition),

    /** The open problems of the targets that exist, by target (an alert of one deleted meanwhile is left out). */
    async problems(): Promise<Problem[]> {
      const rows = await orm.select().from(alerts).orderBy(alerts.since, alerts.targetType, alerts.targetId, alerts.condition);
      return rows.flatMap((row) => {
        const name = nameOf(row.targetType, row.targetId);
        return name === undefined ? [] : [toProblem(row, name)];
      });
    },

    /** The monitors' down alerts nobody has acknowledged, by monitor: what reminders are sent for. */
    downMonitorsUnacknowledged: (): Promise<AlertRow[]> =>
      orm.select().from(alerts)
        .where(and(eq(alerts.targetType, "monitor"), eq(alerts.condition, "down"), unacknowledged))
        .orderBy(alerts.targetId),

    /** Remembers a sent alert (unless another node did first); `name`: the target's, from the event. */
    /** Records a raised alert; false when it was open already (another node raised it first). */
    async raise(key: AlertKey, since: number, at: number, name: string): Promise<boolean> {
      const rows = await orm.insert(alerts).values({ ...key, since, lastNotifiedAt: at }).onConflictDoNothing().returning();
      if (rows[0]) tell("raised", rows[0], name);
      return rows[0] !== undefined;
    },

    /** A reminder was sent for the alert. */
    async notified(key: AlertKey, at: number) {
      await orm.update(alerts).set({ lastNotifiedAt: at }).where(where(key));
    },

    /** Clears an alert (recovered, back under its threshold): its acknowledgement goes with it. */
    async clear(key: AlertKey) {
      for (const row of await orm.delete(alerts).where(where(key)).returning()) tell("resolved", row);
    },

    /** A deleted monitor or agent: its alerts go (told with their last name, as the target is gone). */
    async forgetTarget(type: TargetType, id: number, name?: string) {
      const rows = await orm.delete(alerts).where(and(eq(alerts.targetType, type), eq(alerts.targetId, id))).returning();
      for (const row of rows) tell("resolved", row, name);
    },

    /**
     * Acknowledges an open alert, once: `since` (a signed link's occurrence) must match when given. The row
     * acknowledged, or why not.
     */
    async acknowledge(key: AlertKey, ack: AckRecord, since?: number): Promise<{ ok: true; row: AlertRow } | ({ ok: false } & AckRefusal)> {
      const [row] = await orm.update(alerts)
        .set({ ackedAt: ack.at, ackedBy: ack.by, ackedByName: ack.byName, ackVia: ack.via, ackedChannel: ack.channel })
        .where(and(where(key), unacknowledged, since === undefined ? undefined : eq(alerts.since, since)))
        .returning();
      if (row) {
        tell("acknowledged", row);
        return { ok: true, row };
      }
      const now = await first(orm.select().from(alerts).where(where(key)));
      if (!now) return { ok: false, reason: since === undefined ? "missing" : "resolved" };
      if (since !== undefined && now.since !== since) return { ok: false, reason: "resolved" };
      return { ok: false, reason: "acknowledged", row: now };
    },
  };
}

export type AlertStore = ReturnType<typeof createAlertStore>;
