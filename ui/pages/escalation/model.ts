// The escalation screen's model: a policy as the form holds it (numbers as typed), its checks by the API's limits
// (server/escalation/public.ts POLICY_LIMITS), the body it sends, and a policy's steps as parts of a sentence. Pure
// functions; the screens are the *.tsx files beside it.
import type { ParseKeys } from "i18next";
import { LIMITS, uniqueTags } from "../../api/monitors";
import { POLICY_LIMITS, type EscalationPolicy, type EscalationPolicyInput } from "../../api/escalation";
import { splitTags } from "../monitors/formModel";

export interface StepDraft {
  /** Stable while steps move (React keys), never sent. */
  key: number;
  channelIds: number[];
  /** People paged through their personal contact channels. */
  userIds: number[];
  /** On-call schedules: whoever is on call in each when the step fires. */
  scheduleIds: number[];
  /** Minutes before the next step, as typed. */
  wait: string;
}

export interface PolicyDraft {
  name: string;
  steps: StepDraft[];
  /** Empty: the last step pages once. */
  repeatEvery: string;
  repeatLimit: string;
  isDefault: boolean;
  monitorIds: number[];
  groupIds: number[];
  tags: string[];
  /** A tag being typed, not yet a chip. */
  tagDraft: string;
}

/** What a new step waits: long enough for someone to answer, short enough to matter at night. */
export const DEFAULT_WAIT = "10";

let nextKey = 1;
export const newStep = (to: Partial<Pick<StepDraft, "channelIds" | "userIds" | "scheduleIds">> = {}, wait = DEFAULT_WAIT): StepDraft => ({
  key: nextKey++,
  channelIds: to.channelIds ?? [],
  userIds: to.userIds ?? [],
  scheduleIds: to.scheduleIds ?? [],
  wait,
});

/** How many channels, people and schedules a step pages (each counted once). */
export const recipientCount = (s: Pick<StepDraft, "channelIds" | "userIds" | "scheduleIds">) => new Set(s.channelIds).size + new Set(s.userIds).size + new Set(s.scheduleIds).size;

export const emptyDraft = (): PolicyDraft => ({ name: "", steps: [newStep()], repeatEvery: "", repeatLimit: "0", isDefault: false, monitorIds: [], groupIds: [], tags: [], tagDraft: "" });

export const draftOf = (p: EscalationPolicy): PolicyDraft => ({
  name: p.name,
  steps: p.steps.map((s) => newStep({ channelIds: [...s.channelIds], userIds: [...(s.userIds ?? [])], scheduleIds: [...(s.scheduleIds ?? [])] }, String(s.waitMinutes))),
  repeatEvery: p.repeatEveryMinutes === null ? "" : String(p.repeatEveryMinutes),
  repeatLimit: String(p.repeatLimit),
  isDefault: p.isDefault,
  monitorIds: [...p.monitorIds],
  groupIds: [...p.groupIds],
  tags: [...p.tags],
  tagDraft: "",
});

/** Moves the step (or any item) at `index` one place up (-1) or down (+1); out of range leaves the list as it is. */
export function moveStep<T>(steps: readonly T[], index: number, delta: -1 | 1): T[] {
  const to = index + delta;
  if (to < 0 || to >= steps.length || index < 0 || index >= steps.length) return [...steps];
  const next = [...steps];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

const whole = (raw: string): number | null => (/^\s*\d{1,6}\s*$/.test(raw) ? Number(raw) : null);
const within = (raw: string, [lo, hi]: readonly [number, number]) => {
  const n = whole(raw);
  return n !== null && n >= lo && n <= hi;
};

/** Adds typed text to the tags: a tag longer than any monitor's could be names nothing, and is refused (the text stays). */
export function addPolicyTags(tags: readonly string[], raw: string): { tags: string[]; error: ParseKeys | null } {
  const next = uniqueTags([...tags, ...splitTags(raw)]);
  if (next.some((tag) => tag.length > LIMITS.tagLength)) return { tags: [...tags], error: "monitors.validation.tagTooLong" };
  return { tags: next, error: null };
}

/**
 * The form's fields by name: `name`, `steps`, `steps.{i}.channels`, `steps.{i}.wait`, `repeatEvery`, `repeatLimit`,
 * `tags`, `targets` (and from the server: `isDefault`, `monitors`, `groups`).
 */
export type PolicyErrors = Partial<Record<string, ParseKeys>>;

/** Every problem the server would refuse, by field; empty when it can be sent. The last step's wait is not asked. */
export function validateDraft(d: PolicyDraft): PolicyErrors {
  const errors: PolicyErrors = {};
  const name = d.name.trim();
  if (!name) errors.name = "escalation.form.errors.nameRequired";
  else if (name.length > POLICY_LIMITS.name) errors.name = "escalation.form.errors.nameTooLong";
  if (d.steps.length < 1 || d.steps.length > POLICY_LIMITS.steps) errors.steps = "escalation.form.errors.stepsCount";
  d.steps.forEach((s, i) => {
    const count = recipientCount(s);
    if (count < 1) errors[`steps.${i}.channels`] = "escalation.form.errors.noChannel";
    else if (count > POLICY_LIMITS.recipientsPerStep) errors[`steps.${i}.channels`] = "escalation.form.errors.tooManyChannels";
    if (i < d.steps.length - 1 && !within(s.wait, POLICY_LIMITS.waitMinutes)) errors[`steps.${i}.wait`] = "escalation.form.errors.minutesInvalid";
  });
  const repeating = d.repeatEvery.trim() !== "";
  if (repeating && !within(d.repeatEvery, POLICY_LIMITS.repeatEveryMinutes)) errors.repeatEvery = "escalation.form.errors.minutesInvalid";
  if (repeating && !within(d.repeatLimit, POLICY_LIMITS.repeatLimit)) errors.repeatLimit = "escalation.form.errors.repeatLimitInvalid";
  const tags = addPolicyTags(d.tags, d.tagDraft);
  if (tags.error) errors.tags = tags.error;
  if (d.monitorIds.length + d.groupIds.length + tags.tags.length > POLICY_LIMITS.targets) errors.targets = "escalation.form.errors.tooManyTargets";
  return errors;
}

/** The body of POST / PUT. The server ignores the last step's wait (it repeats instead): a hidden bad value is not sent. */
export function inputOf(d: PolicyDraft): EscalationPolicyInput {
  const repeating = d.repeatEvery.trim() !== "";
  return {
    name: d.name.trim(),
    steps: d.steps.map((s) => ({
      channelIds: [...new Set(s.channelIds)],
      userIds: [...new Set(s.userIds)],
      scheduleIds: [...new Set(s.scheduleIds)],
      waitMinutes: within(s.wait, POLICY_LIMITS.waitMinutes) ? Number(s.wait) : Number(DEFAULT_WAIT),
    })),
    repeatEveryMinutes: repeating ? Number(d.repeatEvery) : null,
    repeatLimit: repeating ? Number(d.repeatLimit) : 0,
    isDefault: d.isDefault,
    monitorIds: d.monitorIds,
    groupIds: d.groupIds,
    tags: addPolicyTags(d.tags, d.tagDraft).tags,
  };
}

/** A policy's steps as the list says them: each step's channels, its wait before the next, and the last one's repeats. */
export interface StepPhrase {
  n: number;
  channelIds: number[];
  userIds: number[];
  scheduleIds: number[];
  /** Minutes before the next step; null on the last. */
  after: number | null;
  /** On the last step, when it repeats: every so many minutes, at most so many times. */
  again: { every: number; count: number } | null;
}

export function phrasesOf(p: Pick<EscalationPolicy, "steps" | "repeatEveryMinutes" | "repeatLimit">): StepPhrase[] {
  const last = p.steps.length - 1;
  return p.steps.map((s, i) => ({
    n: i + 1,
    channelIds: s.channelIds,
    userIds: s.userIds ?? [],
    scheduleIds: s.scheduleIds ?? [],
    after: i < last ? s.waitMinutes : null,
    again: i === last && p.repeatEveryMinutes !== null && p.repeatLimit > 0 ? { every: p.repeatEveryMinutes, count: p.repeatLimit } : null,
  }));
}
