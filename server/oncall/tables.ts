import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../db/schema";
import type { Rotation } from "./public";

/**
 * On-call schedules (server/oncall/): a rotation of users handing over at a wall-clock time in a zone, every day or
 * every week (rotation.ts says who is on call when). `participants` are user ids in order. A deleted user is not taken
 * out here but left out when the schedule is read (store.ts): user ids are never reused (AUTOINCREMENT, identity),
 * so a stale id can only name nobody, and nothing has to run inside the user deletion.
 */
export const oncallSchedules = sqliteTable("oncall_schedules", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  /** IANA zone of the hand-over time and the start date. */
  timeZone: text("time_zone").notNull(),
  rotation: text("rotation", { enum: ["daily", "weekly"] }).$type<Rotation>().notNull(),
  /** "HH:MM", local. */
  handoverTime: text("handover_time").notNull(),
  /** weekly: ISO weekday 1 (Monday) … 7 (Sunday); null for daily. */
  handoverWeekday: integer("handover_weekday"),
  /** "YYYY-MM-DD", local: participant 0's first shift starts that day at the hand-over time. */
  startDate: text("start_date").notNull(),
  participants: text("participants", { mode: "json" }).$type<number[]>().notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** Someone else on call for [starts_at, ends_at); where overrides overlap, the one created last (highest id) wins. */
export const oncallOverrides = sqliteTable(
  "oncall_overrides",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    scheduleId: integer("schedule_id").notNull().references(() => oncallSchedules.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    /** Who added it; null once that account is gone. */
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("oncall_overrides_schedule_ends").on(t.scheduleId, t.endsAt)],
);
