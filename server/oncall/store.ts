// On-call schedules as stored (oncall_schedules, oncall_overrides): validation by the API's rules, and who is on call
// now and next (rotation.ts does the arithmetic). Participants are read through the users that still exist: a
// deleted account drops out of the rotation (tables.ts says why this happens on read); a disabled one stays in it,
// as disabling can be undone and should not reshuffle everyone's shifts.
import { and, asc, count, eq, gt, inArray, lt } from "drizzle-orm";
import { first, type Db } from "../db/database";
import { badRequest, conflict, notFound } from "../http/errors";
import { isTimeZone } from "../reports/period";
import { HH_MM, SCHEDULE_LIMITS, type OnCallOverride, type OnCallOverrideInput, type OnCallPerson, type OnCallSchedule, type OnCallScheduleInput, type OnCallShift } from "./public";
import { epochDay, onCallAt, shiftsBetween, upcoming, type RotationSchedule } from "./rotation";

const DAY = 86_400_000;

type ScheduleRow = typeof import("./tables").oncallSchedules.$inferSelect;
type OverrideRow = typeof import("./tables").oncallOverrides.$inferSelect;

export function createOnCallStore({ db, now = Date.now }: { db: Db; now?: () => number }) {
  const { orm } = db;
  const { oncallSchedules: schedules, oncallOverrides: overrides, users } = db.t;

  /** The accounts among `ids` that still exist, by id. */
  async function accounts(ids: Iterable<number>): Promise<Map<number, OnCallPerson & { active: boolean }>> {
    const wanted = [...new Set(ids)];
    if (!wanted.length) return new Map();
    const rows = await orm.select({ id: users.id, username: users.username, status: users.status }).from(users).where(inArray(users.id, wanted));
    return new Map(rows.map((u) => [u.id, { id: u.id, username: u.username, active: u.status === "active" }]));
  }

  const row = async (id: number) => {
    const r = await first(orm.select().from(schedules).where(eq(schedules.id, id)));
    if (!r) throw notFound("ONCALL_SCHEDULE_NOT_FOUND", "On-call schedule not found");
    return r;
  };

  /** The schedule as rotation.ts takes it, its participants those whose accounts still exist. */
  const rotationOf = (r: ScheduleRow, known: ReadonlyMap<number, unknown>): RotationSchedule => ({ ...r, participants: r.participants.filter((id) => known.has(id)) });

  /** Overrides of the given schedules meeting [from, to), oldest first. */
  const overridesMeeting = (scheduleIds: number[], from: number, to: number) =>
    scheduleIds.length
      ? orm.select().from(overrides).where(and(inArray(overrides.scheduleId, scheduleIds), gt(overrides.endsAt, from), lt(overrides.startsAt, to))).orderBy(asc(overrides.id))
      : Promise.resolve([] as OverrideRow[]);

  /** Schedules as the API gives them, with who is on call at `at` and who is next; a few queries for any number. */
  async function views(rows: ScheduleRow[], at = now()): Promise<OnCallSchedule[]> {
    // Every override not yet ended, however far ahead it starts: the schedule lists them all.
    const open = await overridesMeeting(rows.map((r) => r.id), at, Number.MAX_SAFE_INTEGER);
    const people = await accounts([...rows.flatMap((r) => r.participants), ...open.flatMap((o) => (o.createdBy === null ? [o.userId] : [o.userId, o.createdBy]))]);
    const name = (id: number) => people.get(id)?.username ?? `#${id}`;
    const person = (id: number): OnCallPerson => ({ id, username: name(id) });
    return rows.map((r) => {
      const own = open.filter((o) => o.scheduleId === r.id);
      const { now: current, next } = upcoming(rotationOf(r, people), own, at);
      return {
        id: r.id,
        name: r.name,
        timeZone: r.timeZone,
        rotation: r.rotation,
        handoverTime: r.handoverTime,
        handoverWeekday: r.handoverWeekday,
        startDate: r.startDate,
        participants: r.participants.filter((id) => people.has(id)).map(person),
        overrides: own
          .sort((a, b) => a.startsAt - b.startsAt || a.id - b.id)
          .map((o): OnCallOverride => ({ id: o.id, userId: o.userId, username: name(o.userId), startsAt: o.startsAt, endsAt: o.endsAt, createdBy: o.createdBy === null ? null : person(o.createdBy), createdAt: o.createdAt })),
        now: current && { userId: current.userId, username: name(current.userId), until: current.until },
        next: next && { userId: next.userId, username: name(next.userId), from: next.from },
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
      };
    });
  }
  const view = async (r: ScheduleRow) => (await views([r]))[0]!;

  /** The input checked as a whole, cleaned; every refusal a 400 that names the field. */
  async function validated(input: OnCallScheduleInput) {
    const name = input.name.trim();
    if (name.length < 1 || name.length > SCHEDULE_LIMITS.name) throw badRequest("VALIDATION", `name must be 1-${SCHEDULE_LIMITS.name} characters`);
    if (!isTimeZone(input.timeZone)) throw badRequest("VALIDATION", `timeZone: unknown time zone ${JSON.stringify(input.timeZone.slice(0, 80))}`);
    if (input.rotation !== "daily" && input.rotation !== "weekly") throw badRequest("VALIDATION", "rotation must be daily or weekly");
    if (!HH_MM.test(input.handoverTime)) throw badRequest("VALIDATION", "handoverTime must be a time HH:MM (00:00-23:59)");
    const weekday = input.handoverWeekday ?? null;
    if (input.rotation === "weekly" && !(Number.isInteger(weekday) && weekday! >= 1 && weekday! <= 7)) throw badRequest("VALIDATION", "handoverWeekday must be 1 (Monday) to 7 (Sunday) for a weekly rotation");
    if (epochDay(input.startDate) === null) throw badRequest("VALIDATION", "startDate must be a date YYYY-MM-DD");
    const participants = input.participants;
    if (participants.length < 1 || participants.length > SCHEDULE_LIMITS.participants) throw badRequest("VALIDATION", `participants: 1-${SCHEDULE_LIMITS.participants} users`);
    if (new Set(participants).size !== participants.length) throw badRequest("VALIDATION", "participants: each user once");
    const known = await accounts(participants);
    const missing = participants.find((id) => !known.has(id));
    if (missing !== undefined) throw badRequest("USER_NOT_FOUND", `participants: no user ${missing}`);
    return { name, timeZone: input.timeZone, rotation: input.rotation, handoverTime: input.handoverTime, handoverWeekday: input.rotation === "weekly" ? weekday : null, startDate: input.startDate, participants: [...participants] };
  }

  return {
    list: async () => views(await orm.select().from(schedules).orderBy(asc(schedules.id))),
    get: async (id: number) => view(await row(id)),
    async create(input: OnCallScheduleInput) {
      const v = await validated(input);
      const at = now();
      const [made] = await orm.insert(schedules).values({ ...v, createdAt: at, updatedAt: at }).returning();
      return view(made!);
    },
    async update(id: number, input: OnCallScheduleInput) {
      await row(id);
      const v = await validated(input);
      await orm.update(schedules).set({ ...v, updatedAt: now() }).where(eq(schedules.id, id));
      return view(await row(id));
    },
    async remove(id: number) {
      await row(id);
      await orm.delete(schedules).where(eq(schedules.id, id));
    },

    /** The stretches of duty meeting [from, to) (at most SCHEDULE_LIMITS.shiftsRangeDays), overrides applied. */
    async shifts(id: number, from: number, to: number): Promise<OnCallShift[]> {
      if (!(to > from)) throw badRequest("VALIDATION", "to must be after from");
      if (to - from > SCHEDULE_LIMITS.shiftsRangeDays * DAY) throw badRequest("VALIDATION", `The range is at most ${SCHEDULE_LIMITS.shiftsRangeDays} days`);
      const r = await row(id);
      // Overrides outside the range still bound the stretches at its edges (rotation.ts widens to them).
      const margin = (SCHEDULE_LIMITS.overrideDays + 8) * DAY;
      const own = await overridesMeeting([id], from - margin, to + margin);
      const people = await accounts([...r.participants, ...own.map((o) => o.userId)]);
      return shiftsBetween(rotationOf(r, people), own, from, to).map((s) => ({ ...s, username: people.get(s.userId)?.username ?? `#${s.userId}` }));
    },

    /** Someone else on call for a while: an active account, for at most SCHEDULE_LIMITS.overrideDays. */
    async addOverride(id: number, input: OnCallOverrideInput, createdBy: number | null) {
      await row(id);
      const { userId, startsAt, endsAt } = input;
      if (!(endsAt > startsAt)) throw badRequest("VALIDATION", "endsAt must be after startsAt");
      if (endsAt - startsAt > SCHEDULE_LIMITS.overrideDays * DAY) throw badRequest("VALIDATION", `An override lasts at most ${SCHEDULE_LIMITS.overrideDays} days`);
      const user = (await accounts([userId])).get(userId);
      if (!user) throw badRequest("USER_NOT_FOUND", `userId: no user ${userId}`);
      if (!user.active) throw badRequest("USER_DISABLED", `userId: ${user.username} is disabled`);
      const open = await first(orm.select({ n: count() }).from(overrides).where(and(eq(overrides.scheduleId, id), gt(overrides.endsAt, now()))));
      if (Number(open!.n) >= SCHEDULE_LIMITS.openOverrides) throw conflict("TOO_MANY_OVERRIDES", `A schedule holds at most ${SCHEDULE_LIMITS.openOverrides} overrides not yet ended: delete some first`);
      const [made] = await orm.insert(overrides).values({ scheduleId: id, userId, startsAt, endsAt, createdBy, createdAt: now() }).returning({ id: overrides.id });
      return { overrideId: made!.id, schedule: await view(await row(id)) };
    },
    async removeOverride(id: number, overrideId: number) {
      await row(id);
      const gone = await orm.delete(overrides).where(and(eq(overrides.id, overrideId), eq(overrides.scheduleId, id))).returning({ id: overrides.id });
      if (!gone.length) throw notFound("ONCALL_OVERRIDE_NOT_FOUND", "Override not found");
      return view(await row(id));
    },

    /** Accounts that can be put on call (active), by name: for the pickers. Nothing but id and name leaves. */
    people: async (): Promise<OnCallPerson[]> =>
      orm.select({ id: users.id, username: users.username }).from(users).where(eq(users.status, "active")).orderBy(asc(users.username), asc(users.id)),

    // For escalation (a step that pages whoever is on call in a schedule):

    /** Who is on call in a schedule at `at`, overrides applied; null when nobody is, or there is no such schedule. */
    async onCallAt(scheduleId: number, at: number): Promise<{ userId: number; username: string } | null> {
      const r = await first(orm.select().from(schedules).where(eq(schedules.id, scheduleId)));
      if (!r) return null;
      const own = await overridesMeeting([scheduleId], at, at + 1);
      const people = await accounts([...r.participants, ...own.map((o) => o.userId)]);
      const found = onCallAt(rotationOf(r, people), own, at);
      const user = found && people.get(found.userId);
      return user ? { userId: user.id, username: user.username } : null;
    },
    /** The names of the schedules among `ids` that exist, by id. */
    async names(ids: number[]): Promise<Map<number, string>> {
      const wanted = [...new Set(ids)];
      if (!wanted.length) return new Map();
      const rows = await orm.select({ id: schedules.id, name: schedules.name }).from(schedules).where(inArray(schedules.id, wanted));
      return new Map(rows.map((r) => [r.id, r.name]));
    },
  };
}

export type OnCallStore = ReturnType<typeof createOnCallStore>;
