// The wire types of /api/escalation-policies and a monitor's escalation (the UI imports them, never writes them again).
import type { EscalationStep } from "./tables";

export type { EscalationStep };

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
  createdAt: number;
  updatedAt: number;
}

/** POST / PUT /api/escalation-policies. */
export type EscalationPolicyInput = Pick<EscalationPolicy, "name" | "steps"> & Partial<Pick<EscalationPolicy, "repeatEveryMinutes" | "repeatLimit" | "isDefault" | "monitorIds" | "groupIds" | "tags">>;

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
    next: { step: number; repeat: number; at: number; channelIds: number[] } | null;
  }[];
}
