// When an escalation policy's steps fire for one open problem, from the moment its alert was raised: step 0 at once,
// each next step after the previous one's wait, then the last step again every `repeatEveryMinutes`, at most
// `repeatLimit` times. Pure: the timer (server/escalation/service.ts) asks what is due, the monitor page asks what is next.
//
// A firing is named by (step, repeat): the outbox's event key is made from it, so each fires once across restarts and
// nodes. After a pause (a restart, the leader changing hands) every step missed still fires once — each names other
// people — but of the last step's missed repeats only the latest: a burst of the same page says nothing more.

export interface EscalationStepTiming {
  /** Minutes after this step before the next one (ignored on the last step, which repeats instead). */
  waitMinutes: number;
}

export interface EscalationTiming {
  steps: readonly EscalationStepTiming[];
  /** The last step again every this many minutes while unacknowledged; null: once. */
  repeatEveryMinutes: number | null;
  /** How many times the last step repeats at most (0: never). */
  repeatLimit: number;
}

export interface Firing {
  step: number;
  /** 0: the step's first firing; 1…repeatLimit: the last step's repeats. */
  repeat: number;
  at: number;
}

const MINUTE = 60_000;

/** The moment each step first fires. */
function stepTimes(policy: EscalationTiming, raisedAt: number, minuteMs: number): number[] {
  const times: number[] = [];
  let at = raisedAt;
  policy.steps.forEach((step, i) => {
    times.push(at);
    if (i < policy.steps.length - 1) at += step.waitMinutes * minuteMs;
  });
  return times;
}

/** Every firing in time order, up to and including `until` (repeats bounded by repeatLimit). */
function firingsUntil(policy: EscalationTiming, raisedAt: number, until: number, minuteMs: number): Firing[] {
  if (policy.steps.length === 0) return [];
  const times = stepTimes(policy, raisedAt, minuteMs);
  const out: Firing[] = times.map((at, step) => ({ step, repeat: 0, at })).filter((f) => f.at <= until);
  const last = policy.steps.length - 1;
  const every = policy.repeatEveryMinutes;
  if (every && every > 0 && out.length === policy.steps.length) {
    for (let repeat = 1; repeat <= policy.repeatLimit; repeat++) {
      const at = times[last]! + repeat * every * minuteMs;
      if (at > until) break;
      out.push({ step: last, repeat, at });
    }
  }
  return out;
}

/**
 * What is due at `now`: each step reached, once, and of the last step's repeats only the latest reached. The caller
 * sends them (the outbox drops any it already took, by key).
 */
export function dueFirings(policy: EscalationTiming, raisedAt: number, now: number, minuteMs = MINUTE): Firing[] {
  const all = firingsUntil(policy, raisedAt, now, minuteMs);
  const firsts = all.filter((f) => f.repeat === 0);
  const repeats = all.filter((f) => f.repeat > 0);
  return repeats.length ? [...firsts, repeats.at(-1)!] : firsts;
}

/** The next firing after `now`, or null when the policy has nothing more to do ("will escalate to … at 03:12"). */
export function nextFiring(policy: EscalationTiming, raisedAt: number, now: number, minuteMs = MINUTE): Firing | null {
  if (policy.steps.length === 0) return null;
  const times = stepTimes(policy, raisedAt, minuteMs);
  const step = times.findIndex((at) => at > now);
  if (step >= 0) return { step, repeat: 0, at: times[step]! };
  const every = policy.repeatEveryMinutes;
  if (!every || every <= 0) return null;
  const last = policy.steps.length - 1;
  const repeat = Math.floor((now - times[last]!) / (every * minuteMs)) + 1;
  return repeat <= policy.repeatLimit ? { step: last, repeat, at: times[last]! + repeat * every * minuteMs } : null;
}

/** The outbox key of one firing of a problem's escalation: unique per alert occurrence (its raise time), step, repeat. */
export const firingKey = (problem: string, raisedAt: number, f: Pick<Firing, "step" | "repeat">) => `escalation:${problem}:${raisedAt}:${f.step}:${f.repeat}`;
