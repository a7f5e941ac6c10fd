// Escalation: an alert raised (server/notifications/rules.ts emits alert.raised) starts a run of the policy its target
// follows; step 0 pages at once, each next step after the previous one's wait while the problem stays open and
// unacknowledged, the last one repeats as the policy says (timeline.ts). A timer (the leader's, as reminders) pages
// what is due; acknowledging the problem stops it. Every page goes through the outbox under a key made of the problem,
// its raise time, step and repeat, so each happens once across restarts and nodes. While the target is in
// maintenance nothing is paged. The recovery reaches the channels the steps paged too; a run ends with its alert.
import { and, eq } from "drizzle-orm";
import { first, type Db } from "../db/database";
import type { EventBus, EventMap } from "../events";
import { silentLogger, type Logger } from "../log";
import { isAcknowledged, type AlertStore } from "../notifications/alerts";
import type { Outbox } from "../notifications/outbox";
import type { NotificationStore } from "../notifications/store";
import type { NotificationEvent } from "../notifications/public";
import type { People } from "./people";
import type { PolicyStore } from "./policies";
import type { TargetEscalation } from "./public";
import { dueFirings, firingKey, nextFiring, type Firing } from "./timeline";

export interface EscalationOptions {
  db: Db;
  bus: EventBus;
  outbox: Outbox;
  /** Which channels are enabled (disabled ones are skipped). */
  channels: Pick<NotificationStore, "enabledAmong">;
  /** The open alerts: a run pages while its alert is open and unacknowledged. */
  alerts: Pick<AlertStore, "find">;
  policies: PolicyStore;
  /** Whom a step reaches besides its channels: people and whoever is on call in its schedules. */
  people: People;
  /** Whether this node runs the once-per-cluster chores (the timer); every node starts runs for what it raises. */
  leads?: () => boolean;
  inMaintenance?: (type: "monitor" | "agent", id: number) => boolean;
  now?: () => number;
  /** A minute of the policies' waits: 60 000 (real-clock tests shorten it); the timer looks four times a minute. */
  minuteMs?: number;
  log?: Logger;
}

type RunRow = typeof import("./tables").escalationRuns.$inferSelect;
type Target = { targetType: "monitor" | "agent"; targetId: number; condition: string };

const problemKey = (r: Target) => `${r.targetType}:${r.targetId}:${r.condition}`;
const later = (f: Firing, step: number, repeat: number) => f.step > step || (f.step === step && f.repeat > repeat);

export function createEscalation({ db, bus, outbox, channels, alerts, policies, people, leads = () => true, inMaintenance = () => false, now = Date.now, minuteMs = 60_000, log = silentLogger }: EscalationOptions) {
  const { orm } = db;
  const { escalationRuns: runs, escalationPolicies: policyTable } = db.t;
  const runWhere = (r: Target) => and(eq(runs.targetType, r.targetType), eq(runs.targetId, r.targetId), eq(runs.condition, r.condition));
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<void> | null = null;
  const pending = new Set<Promise<unknown>>();


  /**
   * Pages what is due for one run; records the steps paged. Nothing while the target is in maintenance or once someone
   * acknowledged the problem (the run stays: the channels it paged hear the recovery); a run whose alert is gone or is
   * another occurrence ends.
   */
  async function fire(r: RunRow, at: number) {
    const alert = await alerts.find(r);
    if (!alert || alert.since !== r.since) {
      await orm.delete(runs).where(and(runWhere(r), eq(runs.since, r.since)));
      return;
    }
    if (isAcknowledged(alert) || inMaintenance(r.targetType, r.targetId)) return;
    const policy = await first(orm.select().from(policyTable).where(eq(policyTable.id, r.policyId)));
    if (!policy) return; // deleted: its runs go by the cascade
    const due = dueFirings(policy, r.raisedAt, at, minuteMs).filter((f) => later(f, r.firedStep, r.firedRepeat));
    if (!due.length) return;
    const paged = new Set(r.paged);
    const event = r.event as NotificationEvent;
    for (const f of due) {
      const step = policy.steps[f.step];
      if (!step) continue;
      // Who is on call is asked now, not at the step's planned time: a page late after a restart goes to whoever holds it now.
      const audience = await people.audience(step, at);
      const to = (await channels.enabledAmong(audience.channelIds)).filter((id) => !r.alerted.includes(id));
      for (const p of audience.people) if (!p.reachable) log.warn("escalation: a person paged has no personal contact channel", { problem: problemKey(r), user: p.username });
      const onCall = audience.people.map((p) => (p.schedule ? `${p.username} (${p.schedule.name})` : p.username));
      const facts = { ...event.facts, escalationStep: f.step + 1, escalationSteps: policy.steps.length, escalationRepeat: f.repeat, ...(onCall.length ? { escalationPeople: onCall } : {}) };
      // Each channel's copy carries its own link acknowledging this occurrence (when the instance knows its address).
      const ack = { targetType: r.targetType, targetId: r.targetId, condition: r.condition, since: r.since };
      await outbox.enqueue(to, { ...event, time: at, facts }, firingKey(problemKey(r), r.raisedAt, f), ack);
      for (const id of to) paged.add(id);
    }
    const lastFired = due.at(-1)!;
    await orm.update(runs).set({ firedStep: lastFired.step, firedRepeat: lastFired.repeat, paged: [...paged] }).where(and(runWhere(r), eq(runs.since, r.since)));
    log.info("escalated", { problem: problemKey(r), step: lastFired.step, repeat: lastFired.repeat });
  }

  async function onRaised(e: EventMap["alert.raised"]) {
    const found = await policies.resolve(e.targetType, e.targetId);
    if (!found) return;
    const row = { targetType: e.targetType, targetId: e.targetId, condition: e.condition, since: e.since, policyId: found.policy.id, raisedAt: e.at, event: e.event, alerted: e.channelIds, paged: [], firedStep: -1, firedRepeat: 0 };
    const [saved] = await orm.insert(runs).values(row).onConflictDoUpdate({ target: [runs.targetType, runs.targetId, runs.condition], set: row }).returning();
    if (saved) await fire(saved, now());
  }

  async function onSettled(e: EventMap["alert.settled"]) {
    const [r] = await orm.select().from(runs).where(runWhere(e));
    if (!r) return;
    await orm.delete(runs).where(and(runWhere(e), eq(runs.since, r.since)));
    if (!e.event) return;
    // The people paged hear that it is over, once (the recovery's own channels already did).
    const to = (await channels.enabledAmong(r.paged)).filter((id) => !e.channelIds.includes(id));
    await outbox.enqueue(to, e.event, `escalation-recovery:${problemKey(r)}:${r.raisedAt}`);
  }

  /** Run one listener's work in the background, logged on failure; stop() waits for it. */
  const track = (what: string, work: Promise<unknown>) => {
    const p = work.catch((err) => log.error(`escalation ${what} failed`, { error: String((err as Error)?.stack ?? err) })).finally(() => pending.delete(p));
    pending.add(p);
  };
  bus.on("alert.raised", (e) => track("start", onRaised(e)));
  bus.on("monitor.change", (e) => e.action === "deleted" && !e.remote && track("forget", policies.forgetMonitor(e.monitorId)));
  bus.on("alert.settled", (e) => track("end", onSettled(e)));

  /** One look at every run (the leader's). */
  async function tick(at = now()) {
    if (!leads()) return;
    for (const r of await orm.select().from(runs)) await fire(r, at);
  }

  return {
    policies,
    people,
    tick,
    /** Settles what the listeners started (tests await it). */
    idle: async () => {
      while (pending.size) await Promise.all([...pending]);
    },

    /** The policy a monitor or agent follows and where its open problems' escalations stand. */
    async of(type: "monitor" | "agent", id: number): Promise<TargetEscalation> {
      const found = await policies.resolve(type, id);
      const open = await orm.select().from(runs).where(and(eq(runs.targetType, type), eq(runs.targetId, id)));
      const problems = [];
      for (const r of open) {
        const policy = await first(orm.select().from(policyTable).where(eq(policyTable.id, r.policyId)));
        const next = policy ? nextFiring(policy, r.raisedAt, now(), minuteMs) : null;
        const step = next && policy?.steps[next.step];
        const audience = step ? await people.audience(step, next.at) : null;
        problems.push({ condition: r.condition, raisedAt: r.raisedAt, firedStep: r.firedStep, next: next && step && audience ? { ...next, channelIds: step.channelIds, people: audience.people } : null });
      }
      return { policy: found ? { id: found.policy.id, name: found.policy.name, source: found.source } : null, problems };
    },

    get running() {
      return timer !== null;
    },
    start() {
      timer ??= setInterval(() => {
        if (running) return;
        running = tick()
          .catch((err) => log.error("escalation failed", { error: String((err as Error)?.stack ?? err) }))
          .finally(() => (running = null));
      }, Math.max(50, Math.round(minuteMs / 4)));
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
      while (pending.size) await Promise.all([...pending]);
    },
  };
}

export type EscalationService = ReturnType<typeof createEscalation>;
