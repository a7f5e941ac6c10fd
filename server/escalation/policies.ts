// Escalation policies as stored (escalation_policies, escalation_assignments): validation by the API's rules, and
// which policy a target follows — a monitor's own, else its nearest group's, else one of its tags' (by tag name),
// else the default policy; an agent follows the default.
import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { first, type Db } from "../db/database";
import { badRequest, HttpError, notFound } from "../http/errors";
import { POLICY_LIMITS, type EscalationPolicy, type EscalationPolicyInput, type PolicySource } from "./public";
import type { People } from "./people";
import type { EscalationStep } from "./tables";


export interface PolicyDeps {
  db: Db;
  /** The groups above a monitor, nearest first; its tags; whether it is a group (null: no such monitor). */
  monitorOf(id: number): { ancestors: number[]; tags: string[]; isGroup: boolean } | null;
  /** The people and on-call schedules a step may name. */
  people: People;
  now?: () => number;
}

type Row = typeof import("./tables").escalationPolicies.$inferSelect;

export function createPolicyStore({ db, monitorOf, people, now = Date.now }: PolicyDeps) {
  const { orm } = db;
  const { escalationPolicies: policies, escalationAssignments: assignments, notificationChannels: channels } = db.t;

  /** Names of the people and schedules the steps name, for readers who may not list the users. */
  async function namesOf(steps: EscalationStep[]) {
    const userIds = [...new Set(steps.flatMap((s) => s.userIds ?? []))];
    const users = userIds.length ? await orm.select({ id: db.t.users.id, username: db.t.users.username }).from(db.t.users).where(inArray(db.t.users.id, userIds)) : [];
    const schedules = await people.sources.scheduleNames(steps.flatMap((s) => s.scheduleIds ?? []));
    return { people: users, schedules: [...schedules].map(([id, name]) => ({ id, name })) };
  }

  async function toPublic(r: Row): Promise<EscalationPolicy> {
    const targets = await orm.select().from(assignments).where(eq(assignments.policyId, r.id)).orderBy(asc(assignments.targetKind), asc(assignments.targetRef));
    const of = (kind: string) => targets.filter((a) => a.targetKind === kind).map((a) => a.targetRef);
    return {
      id: r.id,
      name: r.name,
      steps: r.steps,
      repeatEveryMinutes: r.repeatEveryMinutes,
      repeatLimit: r.repeatLimit,
      isDefault: r.isDefault,
      monitorIds: of("monitor").map(Number),
      groupIds: of("group").map(Number),
      tags: of("tag"),
      ...(await namesOf(r.steps)),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }

  const row = async (id: number) => {
    const r = await first(orm.select().from(policies).where(eq(policies.id, id)));
    if (!r) throw notFound("ESCALATION_POLICY_NOT_FOUND", "Escalation policy not found");
    return r;
  };

  const inRange = (v: number, [lo, hi]: readonly [number, number]) => Number.isInteger(v) && v >= lo && v <= hi;

  /** The input checked as a whole, cleaned (names trimmed, ids once each). */
  async function validated(input: EscalationPolicyInput) {
    const name = input.name.trim();
    if (name.length < 1 || name.length > POLICY_LIMITS.name) throw badRequest("VALIDATION", "name must be 1-100 characters");
    if (input.steps.length < 1 || input.steps.length > POLICY_LIMITS.steps) throw badRequest("VALIDATION", `steps: 1-${POLICY_LIMITS.steps} steps`);
    const steps: EscalationStep[] = input.steps.map((s, i) => {
      const channelIds = [...new Set(s.channelIds)];
      const userIds = [...new Set(s.userIds ?? [])];
      const scheduleIds = [...new Set(s.scheduleIds ?? [])];
      const count = channelIds.length + userIds.length + scheduleIds.length;
      if (count < 1 || count > POLICY_LIMITS.recipientsPerStep) throw badRequest("VALIDATION", `steps[${i}]: 1-${POLICY_LIMITS.recipientsPerStep} channels, people and on-call schedules`);
      if (!inRange(s.waitMinutes, POLICY_LIMITS.waitMinutes)) throw badRequest("VALIDATION", `steps[${i}].waitMinutes must be a whole number of minutes, 1-1440`);
      return { channelIds, userIds, scheduleIds, waitMinutes: s.waitMinutes };
    });
    const wanted = [...new Set(steps.flatMap((s) => s.channelIds))];
    const found = await orm.select({ id: channels.id, owner: channels.ownerUserId }).from(channels).where(inArray(channels.id, wanted));
    const known = new Set(found.map((c) => c.id));
    const missing = wanted.find((id) => !known.has(id));
    if (missing !== undefined) throw badRequest("CHANNEL_NOT_FOUND", `steps: no notification channel ${missing}`);
    // A person's own contact channel is theirs to manage: a step names the person (userIds), not their channel.
    const personal = found.find((c) => c.owner !== null);
    if (personal) throw badRequest("CHANNEL_PERSONAL", `steps: channel ${personal.id} is someone's own contact channel: name the person instead`);
    const wantedUsers = [...new Set(steps.flatMap((s) => s.userIds ?? []))];
    const activeUsers = await people.activeUsers(wantedUsers);
    const noUser = wantedUsers.find((id) => !activeUsers.has(id));
    if (noUser !== undefined) throw badRequest("USER_NOT_FOUND", `steps: no active user ${noUser}`);
    const wantedSchedules = [...new Set(steps.flatMap((s) => s.scheduleIds ?? []))];
    const schedules = await people.sources.scheduleNames(wantedSchedules);
    const noSchedule = wantedSchedules.find((id) => !schedules.has(id));
    if (noSchedule !== undefined) throw badRequest("SCHEDULE_NOT_FOUND", `steps: no on-call schedule ${noSchedule}`);
    const repeatEveryMinutes = input.repeatEveryMinutes ?? null;
    if (repeatEveryMinutes !== null && !inRange(repeatEveryMinutes, POLICY_LIMITS.repeatEveryMinutes)) throw badRequest("VALIDATION", "repeatEveryMinutes must be 1-1440 minutes, or null");
    const repeatLimit = input.repeatLimit ?? 0;
    if (!inRange(repeatLimit, POLICY_LIMITS.repeatLimit)) throw badRequest("VALIDATION", "repeatLimit must be 0-100");
    const monitorIds = [...new Set(input.monitorIds ?? [])];
    const groupIds = [...new Set(input.groupIds ?? [])];
    const tags = [...new Set((input.tags ?? []).map((t) => t.trim()).filter(Boolean))];
    if (monitorIds.length + groupIds.length + tags.length > POLICY_LIMITS.targets) throw badRequest("VALIDATION", `at most ${POLICY_LIMITS.targets} monitors, groups and tags`);
    for (const id of [...monitorIds, ...groupIds]) if (!monitorOf(id)) throw badRequest("MONITOR_NOT_FOUND", `no monitor or group ${id}`);
    return { name, steps, repeatEveryMinutes, repeatLimit, isDefault: input.isDefault ?? false, monitorIds, groupIds, tags };
  }

  /** Writes a policy's fields and targets in one transaction; another policy's target or default is a 409. */
  async function save(id: number | null, input: EscalationPolicyInput): Promise<number> {
    const v = await validated(input);
    const at = now();
    const targets = [
      ...v.monitorIds.map((ref) => ({ targetKind: "monitor" as const, targetRef: String(ref) })),
      ...v.groupIds.map((ref) => ({ targetKind: "group" as const, targetRef: String(ref) })),
      ...v.tags.map((ref) => ({ targetKind: "tag" as const, targetRef: ref })),
    ];
    return db.tx(async (tx) => {
      const fields = { name: v.name, steps: v.steps, repeatEveryMinutes: v.repeatEveryMinutes, repeatLimit: v.repeatLimit, isDefault: v.isDefault, updatedAt: at };
      const policyId = id === null ? (await tx.insert(policies).values({ ...fields, createdAt: at }).returning({ id: policies.id }))[0]!.id : id;
      if (id !== null) await tx.update(policies).set(fields).where(eq(policies.id, id));
      if (v.isDefault) {
        const other = await first(tx.select({ name: policies.name }).from(policies).where(and(eq(policies.isDefault, true), ne(policies.id, policyId))));
        // The names go along so the UI can say it in the reader's language, at the field concerned.
        if (other) throw new HttpError(409, "DEFAULT_POLICY_TAKEN", `"${other.name}" is the default policy already`, { policy: other.name });
      }
      await tx.delete(assignments).where(eq(assignments.policyId, policyId));
      for (const target of targets) {
        const taken = await first(
          tx.select({ name: policies.name }).from(assignments).innerJoin(policies, eq(policies.id, assignments.policyId))
            .where(and(eq(assignments.targetKind, target.targetKind), eq(assignments.targetRef, target.targetRef))),
        );
        if (taken) throw new HttpError(409, "TARGET_HAS_POLICY", `${target.targetKind} ${target.targetRef} follows "${taken.name}" already`, { policy: taken.name, ...target });
      }
      if (targets.length) await tx.insert(assignments).values(targets.map((t) => ({ ...t, policyId })));
      return policyId;
    });
  }

  return {
    list: async () => Promise.all((await orm.select().from(policies).orderBy(asc(policies.id))).map(toPublic)),
    get: async (id: number) => toPublic(await row(id)),
    create: async (input: EscalationPolicyInput) => toPublic(await row(await save(null, input))),
    async update(id: number, input: EscalationPolicyInput) {
      await row(id);
      return toPublic(await row(await save(id, input)));
    },
    async remove(id: number) {
      await row(id);
      await orm.delete(policies).where(eq(policies.id, id));
    },
    /** A deleted monitor or group leaves the policies that named it. */
    async forgetMonitor(id: number) {
      await orm.delete(assignments).where(and(inArray(assignments.targetKind, ["monitor", "group"]), eq(assignments.targetRef, String(id))));
    },

    /** The policy a target follows now, and why; null when none applies. */
    async resolve(type: "monitor" | "agent", id: number): Promise<{ policy: Row; source: PolicySource } | null> {
      const byAssignment = async (kind: "monitor" | "group" | "tag", ref: string) =>
        first(orm.select({ p: policies }).from(assignments).innerJoin(policies, eq(policies.id, assignments.policyId))
          .where(and(eq(assignments.targetKind, kind), eq(assignments.targetRef, ref))));
      if (type === "monitor") {
        const m = monitorOf(id);
        if (m) {
          const own = await byAssignment("monitor", String(id));
          if (own) return { policy: own.p, source: { kind: "monitor", ref: String(id) } };
          // A group's own alerts follow the policy it gives its members, before those of the groups above it.
          for (const g of m.isGroup ? [id, ...m.ancestors] : m.ancestors) {
            const found = await byAssignment("group", String(g));
            if (found) return { policy: found.p, source: { kind: "group", ref: String(g) } };
          }
          for (const tag of [...m.tags].sort()) {
            const found = await byAssignment("tag", tag);
            if (found) return { policy: found.p, source: { kind: "tag", ref: tag } };
          }
        }
      }
      const fallback = await first(orm.select().from(policies).where(eq(policies.isDefault, true)));
      return fallback ? { policy: fallback, source: { kind: "default", ref: null } } : null;
    },
  };
}

export type PolicyStore = ReturnType<typeof createPolicyStore>;
