// The retry interval (retryIntervalSeconds): while a failure is being retried a monitor is checked on its retry grid.
import { cadence } from "./service-contract";
import type { Scheduler } from "./scheduler";
import type { MonitorEntry } from "./store";

/**
 * After a check: a failure within the retries moves the monitor onto its retry interval (the next check one retry
 * interval later); recovering, or going down, moves it back to its interval (not sooner than a retry interval).
 */
export function paceRetries(scheduler: Scheduler, { id, fields, state }: MonitorEntry) {
  if (fields.retryIntervalSeconds === null || fields.type === "push" || !scheduler.has(id)) return;
  const retry = state.consecutiveFailures > 0 && state.consecutiveFailures <= fields.retries;
  if (retry === scheduler.retrying(id)) return;
  if (retry) scheduler.schedule(id, fields.retryIntervalSeconds, { retry });
  else scheduler.schedule(id, cadence(fields), { waitSeconds: fields.retryIntervalSeconds });
}
