// Checks from agents: the monitors an admin assigned to this agent, run here with the server's own check modules
// (server/monitors/types), and their results sent to POST /api/agents/probes (server/probes/protocol.ts). Results
// wait in a buffer kept on disk until the server has accepted them, so neither an outage nor a restart loses them;
// the server de-duplicates by (monitor, agent, time), so a resend after a crash is harmless.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { defaultFields, type MonitorFields } from "../server/monitors/field-rules";
import { createCheckTypes, type CheckOutcome, type CheckTypes } from "../server/monitors/types";
import type { TargetPolicy } from "../server/net/targets";
import type { ProbeAssignment, ProbeAssignments, ProbeRefusal, ProbeReply, ProbeResult } from "../server/probes/protocol";

import { MAX_PROBE_ERROR, MAX_PROBE_RESPONSE_MS as MAX_RESPONSE_TIME, MAX_PROBE_RESULTS } from "../server/probes/limits";

export { MAX_PROBE_ERROR, MAX_PROBE_RESULTS };

/** How a sync ended. "sent": every result buffered at its start reached the server (there may have been none).
 * "dropped": likewise, but the server refused some results on their own and they were dropped. "retry": the server
 * is unreachable or failing; everything unsent is kept. "revoked": the credential is refused. "unsupported": the
 * server has no /api/agents/probes (an older Vigil). */
export type ProbeSyncOutcome = "sent" | "dropped" | "retry" | "revoked" | "unsupported";

export interface ProbeRunnerOptions {
  /** The file unsent results are kept in (written atomically); none: kept in memory only. */
  statePath?: string;
  /** Results kept while the server is unreachable; the oldest are dropped past it (default 10 000). */
  capacity?: number;
  /** Least time between two writes of the state file (default 1 s). */
  persistEveryMs?: number;
  /** The delay before a (re)scheduled monitor's first check; default a random one within min(interval, 10 s). */
  firstDelay?: (intervalMs: number) => number;
  /** Builds the check modules for an address policy (tests); default createCheckTypes. */
  checkTypes?: (policy: TargetPolicy) => CheckTypes;
  fetch?: typeof fetch;
  now?: () => number;
  log?: (msg: string) => void;
}

/** One assigned monitor's loop of checks. */
interface Loop {
  id: number;
  /** Its interval, fields and the policy as JSON: a different key restarts the loop. */
  key: string;
  fields: MonitorFields;
  intervalMs: number;
  types: CheckTypes;
  abort: AbortController;
  timer?: ReturnType<typeof setTimeout>;
  /** The planned time of the next check (fixed cadence). */
  next: number;
  running?: Promise<void>;
  stopped: boolean;
}

type Reply =
  | { kind: "accepted"; assignments?: ProbeAssignments; refused: ProbeRefusal[] }
  | { kind: "invalid"; message: string }
  | { kind: "revoked" | "retry" | "unsupported" };

const STATE_FORMAT = 1;
/** A reason the server refuses results for is logged at most this often (a refusal may repeat at every sync). */
const REFUSAL_LOG_EVERY_MS = 3_600_000;

/**
 * Runs the checks assigned to this agent and holds their results until the server has them. `apply` (re)schedules
 * the checks; `sync` sends the results, oldest first, and applies the assignments the server sends back.
 */
export class ProbeRunner {
  private buffer: ProbeResult[] = [];
  private loops = new Map<number, Loop>();
  private assignedVersion = "";
  /** The assignments being run, kept in the state file: a restart while the server is away keeps checking. */
  private assigned: ProbeAssignments | null = null;
  private syncing: Promise<ProbeSyncOutcome> | undefined;
  private persistTimer: ReturnType<typeof setTimeout> | undefined;
  private lastPersist = 0;
  private dirty = false;
  private persistFailing = false;
  private stopped = false;
  private unsupportedLogged = false;
  /** When each reason for refused results was last logged. */
  private refusalsLogged = new Map<string, number>();
  private readonly capacity: number;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private readonly log: (msg: string) => void;

  constructor(private readonly options: ProbeRunnerOptions = {}) {
    this.capacity = options.capacity ?? 10_000;
    this.fetch = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? ((m) => console.error(m));
    this.load();
  }

  /** The version of the assignments being run ("" before any). */
  get version(): string {
    return this.assignedVersion;
  }

  /** Results waiting to be sent. */
  get pending(): number {
    return this.buffer.length;
  }

  /** The ids of the monitors being checked. */
  get monitorIds(): number[] {
    return [...this.loops.keys()];
  }

  /**
   * Runs these assignments from now on: a monitor newly assigned (or whose interval, fields or the address policy
   * changed) is (re)started, its first check soon; one no longer assigned stops. Push monitors are never run here.
   */
  apply(assignments: ProbeAssignments): void {
    if (this.stopped) return;
    const policy: TargetPolicy = { allowPrivate: assignments.policy.allowPrivate };
    let types: CheckTypes | undefined;
    const typesFor = () => (types ??= (this.options.checkTypes ?? ((p) => createCheckTypes({ policy: p, now: this.now })))(policy));
    const wanted = new Set<number>();
    for (const m of assignments.monitors) {
      const fields = { ...defaultFields(), ...m.fields } as MonitorFields;
      if (fields.type === "push") continue;
      wanted.add(m.id);
      // Seconds from servers that send them; older servers send whole minutes only.
      const intervalMs = Number.isFinite(m.intervalSeconds) && m.intervalSeconds! > 0 ? m.intervalSeconds! * 1000 : Math.round(m.interval * 60_000);
      const key = JSON.stringify([intervalMs, policy.allowPrivate, fields]);
      const current = this.loops.get(m.id);
      if (current?.key === key) continue;
      if (current) this.stopLoop(current);
      this.startLoop({ id: m.id, key, fields, intervalMs, types: typesFor(), abort: new AbortController(), next: 0, stopped: false });
    }
    for (const loop of this.loops.values()) if (!wanted.has(loop.id)) this.stopLoop(loop);
    if (assignments.version !== this.assignedVersion) {
      this.log(`checks assigned by the server: ${wanted.size} monitor(s)${wanted.size ? ` (${[...wanted].join(", ")})` : ""}`);
    }
    if (assignments.version !== this.assignedVersion || !this.assigned) {
      this.assigned = assignments;
      this.changed();
    }
    this.assignedVersion = assignments.version;
  }

  /** Runs one check of an assigned monitor now (tests; a check already running is awaited instead). */
  async runNow(monitorId: number): Promise<boolean> {
    const loop = this.loops.get(monitorId);
    if (!loop) return false;
    await this.check(loop);
    return true;
  }

  /**
   * Sends the results buffered now, oldest first, at most MAX_PROBE_RESULTS a call, with the version of the
   * assignments being run; always at least one call, so the server can hand over new assignments. Results are
   * forgotten only once the server accepted them. A call refused as invalid (400) is bisected: only results the
   * server refuses on their own are dropped. Concurrent calls share the sync in progress.
   */
  sync(server: string, credential: string): Promise<ProbeSyncOutcome> {
    this.syncing ??= this.syncOnce(server, credential).finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  /** Stops every check and writes the buffer to the state file. */
  stop(): void {
    this.stopped = true;
    for (const loop of this.loops.values()) this.stopLoop(loop);
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = undefined;
    this.persist();
  }

  // ---- checks ----

  private startLoop(loop: Loop): void {
    this.loops.set(loop.id, loop);
    const delay = Math.max(0, this.options.firstDelay?.(loop.intervalMs) ?? Math.random() * Math.min(loop.intervalMs, 10_000));
    loop.next = this.now() + delay;
    const tick = () => {
      if (loop.stopped) return;
      void this.check(loop);
      // Fixed cadence from the planned times; after a sleep of the machine, one check and on, not a burst.
      loop.next += loop.intervalMs;
      if (loop.next < this.now()) loop.next = this.now() + loop.intervalMs;
      loop.timer = setTimeout(tick, loop.next - this.now());
    };
    loop.timer = setTimeout(tick, delay);
  }

  private stopLoop(loop: Loop): void {
    loop.stopped = true;
    if (loop.timer) clearTimeout(loop.timer);
    loop.abort.abort();
    if (this.loops.get(loop.id) === loop) this.loops.delete(loop.id);
  }

  private check(loop: Loop): Promise<void> {
    // Never two checks of one monitor at once (a check's timeout is below its interval, but a machine may stall).
    loop.running ??= (async () => {
      const now = this.now();
      let outcome: CheckOutcome | null;
      try {
        outcome = await loop.types.run(loop.fields, { lastPushAt: null, tlsExpiresAt: null, pushWatch: { since: now, missedAt: null } }, loop.abort.signal);
      } catch (e) {
        // The check modules never throw; if one does, nothing is recorded rather than a false verdict.
        this.log(`the check of monitor ${loop.id} failed: ${(e as Error)?.message ?? e}`);
        return;
      }
      // A check cut short because the monitor was unassigned or changed is not a verdict.
      if (!outcome || loop.stopped) return;
      this.add(toResult(loop.id, outcome));
    })().finally(() => (loop.running = undefined));
    return loop.running;
  }

  private add(result: ProbeResult): void {
    this.buffer.push(result);
    if (this.buffer.length > this.capacity) {
      const dropped = this.buffer.length - this.capacity;
      this.buffer.splice(0, dropped);
      this.log(`check results buffer full: dropped the ${dropped} oldest result(s)`);
    }
    this.changed();
  }

  // ---- sending ----

  private async syncOnce(server: string, credential: string): Promise<ProbeSyncOutcome> {
    // Only what is buffered now: results that arrive meanwhile wait for the next sync, so this one always ends.
    const queue = this.buffer.slice();
    let cap = MAX_PROBE_RESULTS;
    let dropped = false;
    do {
      const batch = queue.slice(0, cap);
      const reply = await this.post(server, credential, batch);
      switch (reply.kind) {
        case "accepted":
          queue.splice(0, batch.length);
          this.forget(batch);
          cap = MAX_PROBE_RESULTS;
          this.unsupportedLogged = false;
          // Refused results are forgotten with the rest: the server would refuse them again.
          if (reply.refused.length) {
            dropped = true;
            this.logRefusals(reply.refused);
          }
          if (reply.assignments) this.apply(reply.assignments);
          break;
        case "invalid":
          if (batch.length > 1) {
            // Some result in it is bad: halve until the bad ones are alone (the cap is lifted after an accepted call).
            if (cap === MAX_PROBE_RESULTS) this.log(`the server refused ${batch.length} check results as invalid (${reply.message}); bisecting them`);
            cap = Math.floor(batch.length / 2);
          } else if (batch.length === 1) {
            this.log(`the server refused a check result as invalid; dropped it (monitor ${batch[0].monitorId} at ${new Date(batch[0].time).toISOString()}): ${reply.message}`);
            queue.splice(0, 1);
            this.forget(batch);
            dropped = true;
          } else {
            this.log(`the server refused this agent's call for its checks (${reply.message}); will retry`);
            return "retry";
          }
          break;
        default:
          return reply.kind;
      }
    } while (queue.length > 0);
    return dropped ? "dropped" : "sent";
  }

  /** One line per reason (its count, monitors and the server's sentence), each reason at most once an hour. */
  private logRefusals(refused: ProbeRefusal[]): void {
    const byReason = new Map<string, ProbeRefusal[]>();
    for (const r of refused) byReason.set(r.reason, [...(byReason.get(r.reason) ?? []), r]);
    for (const [reason, list] of byReason) {
      if (this.now() - (this.refusalsLogged.get(reason) ?? -Infinity) < REFUSAL_LOG_EVERY_MS) continue;
      this.refusalsLogged.set(reason, this.now());
      const monitors = [...new Set(list.map((r) => r.monitorId))];
      this.log(`the server refused ${list.length} check result(s) of monitor(s) ${monitors.join(", ")}: ${list[0].message} (${reason}); dropped them`);
    }
  }

  /** Removes results the server has (or refused for good); `add` may have dropped some of them meanwhile. */
  private forget(batch: ProbeResult[]): void {
    if (batch.length === 0) return;
    const gone = new Set(batch);
    this.buffer = this.buffer.filter((r) => !gone.has(r));
    this.changed();
  }

  private async post(server: string, credential: string, results: ProbeResult[]): Promise<Reply> {
    let res: Response;
    try {
      res = await this.fetch(new URL("/api/agents/probes", server), {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${credential}` },
        body: JSON.stringify({ version: this.assignedVersion, results }),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (e) {
      this.log(`cannot send check results to ${server}: ${(e as Error).message}; will retry`);
      return { kind: "retry" };
    }
    const text = await res.text().catch(() => "");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined; // a proxy's error page, say
    }
    if (res.ok) {
      // The status decides: results the server took are never sent again because its reply was unreadable.
      const reply = body as Partial<ProbeReply> | undefined;
      // An older server sends no refusals.
      const refused = Array.isArray(reply?.refused) ? reply.refused.filter(isRefusal) : [];
      const assignments = reply?.assignments;
      if (assignments === undefined) return { kind: "accepted", refused };
      if (isAssignments(assignments)) return { kind: "accepted", assignments, refused };
      this.log("the server sent check assignments this agent cannot read; keeping the current ones");
      return { kind: "accepted", refused };
    }
    if (res.status === 401 || res.status === 403) {
      this.log(`the server no longer accepts this agent's credential (${res.status}); register again`);
      return { kind: "revoked" };
    }
    if (res.status === 404 || res.status === 405) {
      if (!this.unsupportedLogged) this.log(`the server does not take check results from agents (${res.status}: an older Vigil?)`);
      this.unsupportedLogged = true;
      return { kind: "unsupported" };
    }
    if (res.status === 400 || res.status === 413) {
      const message = (body as { message?: unknown } | undefined)?.message;
      return { kind: "invalid", message: typeof message === "string" ? message : `${res.status} ${text.slice(0, 200)}` };
    }
    this.log(`the server answered ${res.status} to check results; will retry`);
    return { kind: "retry" };
  }

  // ---- the state file ----

  private changed(): void {
    if (!this.options.statePath) return;
    this.dirty = true;
    if (this.persistTimer || this.stopped) return;
    // Batched: at most one write a second, soon after the change.
    const wait = Math.max(0, this.lastPersist + (this.options.persistEveryMs ?? 1000) - Date.now());
    this.persistTimer = setTimeout(() => {
      this.persistTimer = undefined;
      this.persist();
    }, wait);
  }

  /** Writes the buffer to a temporary file beside the state file and renames it over it: never half a file. */
  private persist(): void {
    const path = this.options.statePath;
    if (!path || !this.dirty) return;
    this.dirty = false;
    this.lastPersist = Date.now();
    const tmp = join(dirname(path), `.${basename(path)}.tmp`);
    try {
      writeFileSync(tmp, JSON.stringify({ format: STATE_FORMAT, assignments: this.assigned, results: this.buffer }), { mode: 0o600 });
      renameSync(tmp, path);
      if (this.persistFailing) this.log(`unsent check results are saved to ${path} again`);
      this.persistFailing = false;
    } catch (e) {
      // Said once until it works again (a read-only directory would otherwise log every second).
      if (!this.persistFailing) {
        this.log(`cannot save unsent check results to ${path} (${(e as Error).message}): they are kept in memory only; the directory must be writable (systemd: ReadWritePaths=${dirname(path)})`);
      }
      this.persistFailing = true;
    }
  }

  private load(): void {
    const path = this.options.statePath;
    if (!path || !existsSync(path)) return;
    try {
      const saved = JSON.parse(readFileSync(path, "utf8")) as { results?: unknown; assignments?: unknown };
      const results = Array.isArray(saved?.results) ? saved.results.filter(isResult) : [];
      this.buffer = results.slice(-this.capacity);
      if (this.buffer.length) this.log(`${this.buffer.length} unsent check result(s) from ${path}`);
      // The checks assigned before the restart run until the server says otherwise (it may be out of reach now).
      if (isAssignments(saved?.assignments)) this.apply(saved.assignments);
    } catch (e) {
      this.log(`cannot read unsent check results from ${path} (${(e as Error).message}); starting without them`);
    }
  }
}

/** A check's outcome as the server takes it: whole milliseconds, the error cut to its limit. */
export function toResult(monitorId: number, o: CheckOutcome): ProbeResult {
  const result: ProbeResult = {
    monitorId,
    time: Math.max(0, Math.round(o.time)),
    up: o.up,
    responseTime: o.responseTime === null ? null : Math.min(MAX_RESPONSE_TIME, Math.max(0, Math.round(o.responseTime))),
    httpStatus: Number.isInteger(o.httpStatus) && o.httpStatus! >= 100 && o.httpStatus! <= 999 ? o.httpStatus : null,
    error: o.error === null ? null : truncate(o.error, MAX_PROBE_ERROR),
  };
  if (o.ping) result.ping = { ...o.ping };
  return result;
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1); // not half a surrogate pair
  return `${cut}…`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function isResult(v: unknown): v is ProbeResult {
  return (
    isObject(v) &&
    Number.isSafeInteger(v.monitorId) &&
    Number.isSafeInteger(v.time) &&
    typeof v.up === "boolean" &&
    (v.responseTime === null || typeof v.responseTime === "number") &&
    (v.httpStatus === null || typeof v.httpStatus === "number") &&
    (v.error === null || typeof v.error === "string")
  );
}

function isAssignment(v: unknown): v is ProbeAssignment {
  return isObject(v) && Number.isSafeInteger(v.id) && typeof v.interval === "number" && Number.isFinite(v.interval) && v.interval > 0 && isObject(v.fields);
}

function isRefusal(v: unknown): v is ProbeRefusal {
  return isObject(v) && Number.isSafeInteger(v.monitorId) && typeof v.reason === "string" && typeof v.message === "string";
}

function isAssignments(v: unknown): v is ProbeAssignments {
  return (
    isObject(v) &&
    typeof v.version === "string" &&
    isObject(v.policy) &&
    typeof v.policy.allowPrivate === "boolean" &&
    Array.isArray(v.monitors) &&
    v.monitors.every(isAssignment)
  );
}
