// Whom an escalation step reaches: its team channels, the people it names (through their enabled personal contact
// channels) and, for each on-call schedule it names, whoever is on call when the step fires. The schedules and the
// personal channels live in their own features (server/oncall/, server/notifications/): they are handed in here.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/database";
import type { EscalationStep } from "./tables";

export interface OnCallPerson {
  userId: number;
  username: string;
}

/** A person a step pages: named by the step (schedule null), or on call then in one of its schedules. */
export interface PagedPerson extends OnCallPerson {
  schedule: { id: number; name: string } | null;
}

/** What escalation asks of the on-call schedules and of the people's contact channels. */
export interface PeopleSources {
  /** The names of the schedules among `ids` that exist. */
  scheduleNames(ids: number[]): Promise<Map<number, string>>;
  /** Who is on call in a schedule at an instant (null: nobody, or no such schedule). */
  onCallAt(scheduleId: number, at: number): Promise<OnCallPerson | null>;
  /** Each person's enabled personal contact channels (a person without any is absent or maps to []). */
  contactChannelsOf(userIds: number[]): Promise<Map<number, number[]>>;
}

/** No schedules, no personal channels: escalation pages team channels only (tests that do not need people). */
export const NO_PEOPLE: PeopleSources = {
  scheduleNames: async () => new Map(),
  onCallAt: async () => null,
  contactChannelsOf: async () => new Map(),
};

/** Who a step reached, for the message and the monitor page. */
export interface StepAudience {
  channelIds: number[];
  /** The people paged, and whether they have a contact channel to be paged through. */
  people: (PagedPerson & { reachable: boolean })[];
}

export function createPeople(db: Db, sources: PeopleSources) {
  const { orm } = db;
  const { users } = db.t;

  /** Active users among `ids` with their names. */
  async function activeUsers(ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await orm.select({ id: users.id, username: users.username }).from(users).where(and(inArray(users.id, ids), eq(users.status, "active")));
    return new Map(rows.map((r) => [r.id, r.username]));
  }

  return {
    sources,
    activeUsers,
    /** The people a step names and those on call in its schedules at `at`, once each (a named person first). */
    async people(step: EscalationStep, at: number): Promise<PagedPerson[]> {
      const named = await activeUsers(step.userIds ?? []);
      const out: PagedPerson[] = [...named].map(([userId, username]) => ({ userId, username, schedule: null }));
      const names = await sources.scheduleNames(step.scheduleIds ?? []);
      for (const id of step.scheduleIds ?? []) {
        const person = await sources.onCallAt(id, at);
        // A disabled account stays in its rotations (the schedule shows it) but is not paged: its turn pages nobody.
        if (!person || !(await activeUsers([person.userId])).has(person.userId)) continue;
        if (!out.some((p) => p.userId === person.userId)) out.push({ ...person, schedule: { id, name: names.get(id) ?? `#${id}` } });
      }
      return out;
    },
    /** Everything a step reaches at `at`: its channels and the personal channels of its people (ids once each). */
    async audience(step: EscalationStep, at: number): Promise<StepAudience> {
      const people = await this.people(step, at);
      const contacts = await sources.contactChannelsOf(people.map((p) => p.userId));
      const channelIds = new Set(step.channelIds);
      for (const p of people) for (const id of contacts.get(p.userId) ?? []) channelIds.add(id);
      return { channelIds: [...channelIds], people: people.map((p) => ({ ...p, reachable: (contacts.get(p.userId) ?? []).length > 0 })) };
    },
  };
}

export type People = ReturnType<typeof createPeople>;
