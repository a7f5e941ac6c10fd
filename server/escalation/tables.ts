import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One step of a policy: whom it pages — team channels, people (through their personal contact channels) and on-call
 * schedules (whoever is on call when the step fires) — and how long it waits for an acknowledgement before the next
 * step. People and schedules are absent on steps saved before they existed.
 */
export interface EscalationStep {
  channelIds: number[];
  userIds?: number[];
  scheduleIds?: number[];
  waitMinutes: number;
}

/**
 * Escalation policies (server/escalation/): ordered steps, each paging its channels when an open problem is still not
 * acknowledged; the last step repeats every `repeatEveryMinutes`, at most `repeatLimit` times. Chosen per monitor,
 * group or tag (escalation_assignments), or the one default.
 */
export const escalationPolicies = sqliteTable("escalation_policies", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  steps: text("steps", { mode: "json" }).$type<EscalationStep[]>().notNull(),
  repeatEveryMinutes: integer("repeat_every_minutes"),
  repeatLimit: integer("repeat_limit").notNull().default(0),
  isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** Which policy a monitor, a group (and so its members) or a tag's monitors follow: each target in one policy at most. */
export const escalationAssignments = sqliteTable(
  "escalation_assignments",
  {
    /** monitor, group (a monitor id either way), tag (its name). */
    targetKind: text("target_kind").$type<"monitor" | "group" | "tag">().notNull(),
    targetRef: text("target_ref").notNull(),
    policyId: integer("policy_id").notNull().references(() => escalationPolicies.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.targetKind, t.targetRef] })],
);

/**
 * A problem being escalated: one per open alert (notification_alerts), written when the alert is raised with the event
 * that raised it and the policy then in force. The steps' times count from `raisedAt`; the steps already paged are
 * `firedStep`/`firedRepeat` (-1: none yet), so the timer skips them — the outbox's keys make a second page impossible
 * anyway, across restarts and nodes. Gone with the alert (recovered, deleted).
 */
export const escalationRuns = sqliteTable(
  "escalation_runs",
  {
    targetType: text("target_type").$type<"monitor" | "agent">().notNull(),
    targetId: integer("target_id").notNull(),
    condition: text("condition").notNull(),
    /** The alert's `since`: which occurrence this is. */
    since: integer("since").notNull(),
    policyId: integer("policy_id").notNull().references(() => escalationPolicies.id, { onDelete: "cascade" }),
    raisedAt: integer("raised_at").notNull(),
    /** The raising event (its kind, target and facts are what each step says again). */
    event: text("event", { mode: "json" }).notNull(),
    /** Channels the alert itself reached: a step does not page them a second time. */
    alerted: text("alerted", { mode: "json" }).$type<number[]>().notNull(),
    /** Channels the steps paged: they hear the recovery too. */
    paged: text("paged", { mode: "json" }).$type<number[]>().notNull(),
    firedStep: integer("fired_step").notNull().default(-1),
    firedRepeat: integer("fired_repeat").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.targetType, t.targetId, t.condition] })],
);
