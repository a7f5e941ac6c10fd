// The wire types of /api/escalation-policies and a monitor's escalation (the UI imports them, never writes them again).
import type { EscalationStep } from "./tables";

export type { EscalationStep };

/** The API's limits (policies.ts checks them; the UI's form mirrors them): name length, steps, channels + people + schedules per step, minutes, repeats, targets. */
export const POLICY_LIMITS = { name: 100, steps: 10, recipientsPerStep: 20, waitMinutes: [1, 1440], repeatEveryMinutes: [1, 1440], repeatLimit: [0, 100], targets: 1000 } as const;

export interface EscalationPolicy {
  id: number;
  name: string;
  /** In order: step 0 pages at once, each next one after the previous step's wait while nobody acknowledged. */
  steps: EscalationStep[];
  /** The last step again every this many minutes while unacknowledged (null: once). */
  repeatEveryMinutes: number | null;
  /** At most this many repeats. */
  repeatLimit: number;
  /** Followed by every monitor and agent that no monitor, group or tag assignment names. */
  isDefault: boolean;
  monitorIds: number[];
  /** Groups: their members (at any depth) and the group itself follow the policy. */
  groupIds: number[];
  tags: string[];
  /** The names of the people and on-call schedules its steps name (one deleted since is absent): what the list shows. */
  people: { id: number; username: string }[];
  schedules: { id: number; name: string }[];
  createdAt: number;
  updatedAt: number;
}

/** POST / PUT /api/escalation-policies. */
export type EscalationPolicyInput = Pick<EscalationPolicy, "name" | "steps"> & Partial<Pick<EscalationPolicy, "repeatEveryMinutes" | "repeatLimit" | "isDefault" | "monitorIds" | "groupIds" | "tags">>;

/** What a 409 adds to its body: the policy that is the default already, or that the target follows already. */
export type PolicyConflict =
  | { code: "DEFAULT_POLICY_TAKEN"; policy: string }
  | { code: "TARGET_HAS_POLICY"; policy: string; targetKind: "monitor" | "group" | "tag"; targetRef: string };

/** Why a target follows a policy: its own assignment, a group above it, one of its tags, or the default. */
export type PolicySource = { kind: "monitor" | "group" | "tag"; ref: string } | { kind: "default"; ref: null };

/** GET /api/monitors/:id/escalation: the policy it follows, and its open problems' next steps. */
export interface TargetEscalation {
  policy: { id: number; name: string; source: PolicySource } | null;
  /** Each open problem being escalated: when it was raised, the step paged last, the next one (null: nothing more). */
  problems: {
    condition: string;
    raisedAt: number;
    firedStep: number;
    next: {
      step: number;
      repeat: number;
      at: number;
      channelIds: number[];
      /** The people it will page then: named by the step, or on call then in one of its schedules (`schedule`). */
      people: { userId: number; username: string; schedule: { id: number; name: string } | null; reachable: boolean }[];
    } | null;
  }[];
}
