// Which services run timers or loops, and in what order they start and stop: one list, so none can be left out
// (maintenance once was: windows never began or ended by themselves). lifecycle.test.ts checks that every service
// with start/stop is in it, and against the shipped server that each of them runs.
import type { Services } from "./app";

/**
 * Start order, after the HTTP server listens (the cluster announces this node's address):
 * - cluster: on PostgreSQL, join the other nodes and take a share of the monitors first, so no check runs here that
 *   another node makes too, and the rules know who notifies for what;
 * - maintenance: its timer, and what changed while the server was stopped, before the first check is recorded;
 * - monitors, agents: the checks and the agents' presence;
 * - notifications, subscribers: sending what they produce; objectives: error budgets, after the notification rules
 *   listen (their alerts go through them); reports: the monthly report mails; probes: pruning location results.
 * Stop order is the same: the cluster first hands this node's monitors to the others at once (rather than after
 * their leases expire), then each service stops before the ones that take what it flushes on the way out (the last
 * checks' alerts are still queued and sent).
 */
export const LIFECYCLE = ["cluster", "maintenance", "monitors", "agents", "notifications", "escalation", "objectives", "subscribers", "reports", "probes"] as const satisfies readonly (keyof Services)[];

export type RunningService = (typeof LIFECYCLE)[number];

/** Starts every service in order; returns the names of those running afterwards (the startup log lists them). */
export async function startServices(services: Services, { url }: { url: string }): Promise<RunningService[]> {
  for (const name of LIFECYCLE) {
    if (name === "cluster") await services.cluster.start(url);
    else await services[name].start();
  }
  return LIFECYCLE.filter((name) => services[name].running);
}

/**
 * Stops everything: browsers' live sockets first (the HTTP server waits for open connections), then `stopHttp`, then
 * each service in order, writing every pending result and state before the database closes.
 */
export async function stopServices(services: Services, stopHttp: () => Promise<void>): Promise<void> {
  services.live.close();
  await stopHttp();
  for (const name of LIFECYCLE) await services[name].stop();
}
