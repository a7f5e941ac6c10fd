// Reports mailed every month: the schedules (report_schedules) and the timer that sends each one's previous calendar
// month once that month has ended in the schedule's zone and its last hour is rolled up (the rollup watermark has
// passed the month's end), so the numbers are the ones the report page shows from then on.
//
// Once per month across restarts and nodes: a month is claimed by a conditional UPDATE of last_period before the
// mail goes; only the caller whose update changed the row sends. A schedule made in a month starts with that month's
// predecessor as last_period, so its first mail is of the month it was made in (Send now tries one at once).
//
// Failures: a mail server's temporary trouble (network, 4xx) releases the claim, so a later tick retries, at most
// MAX_ATTEMPTS times per month with growing waits (the count and the next try kept in the row: a restart or a new
// leader goes on counting); anything else (5xx, a refused login, the target or channel gone or disabled)
// keeps the month claimed: it is not mailed again by itself, last_error says why, and Send now mails it after a fix.
// A process killed between the claim and the mail loses that month's mail rather than ever sending it twice.
import { and, asc, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../db/database";
import { first } from "../db/database";
import { badRequest, HttpError, notFound } from "../http/errors";
import { silentLogger, type Logger } from "../log";
import { readWatermarks } from "../monitors/history";
import { isEmail, MAX_RECIPIENTS } from "../notifications/providers/email";
import type { SendContext, SendResult } from "../notifications/providers/provider";
import { sendMail } from "../notifications/providers/smtp";
import type { ChannelConfigs } from "../notifications/public";
import type { ReportDeps } from "./compute";
import { reportMail } from "./mail";
import { isTimeZone, parsePeriod, type Period } from "./period";
import { REPORT_MAIL_MAX_ATTEMPTS, type ReportSchedule, type ReportScheduleInput, type ReportTargetKind } from "./public";
import { buildReport, resolveTarget, type TargetDeps } from "./report";

export const TARGET_KINDS: ReportTargetKind[] = ["monitor", "group", "tag", "status-page"];
export const LANGUAGES = ["zh-CN", "en-US"] as const;
/** How often the timer looks: a monthly mail leaves within this of its month's last hour being rolled up. */
export const TICK_MS = 5 * 60_000;
/** Attempts per month after temporary failures, and the waits between them (the last repeats). */
export const MAX_ATTEMPTS = REPORT_MAIL_MAX_ATTEMPTS;
const RETRY_WAITS_MS = [5 * 60_000, 15 * 60_000, 60 * 60_000, 3 * 3_600_000];

export interface ReportScheduleOptions {
  db: Db;
  deps: ReportDeps & TargetDeps;
  log?: Logger;
  now?: () => number;
  tickMs?: number;
  /** Whether this node runs the once-per-cluster chores (the leader; alone, always). */
  leads?: () => boolean;
  send: Pick<SendContext, "timeoutMs" | "hostProblem">;
}

/** The month before the one `at` falls in, in `zone` ("2026-10"). */
export function previousMonth(at: number, zone: string): string {
  const d = Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(zone);
  const [year, month] = d.month === 1 ? [d.year - 1, 12] : [d.year, d.month - 1];
  return `${year}-${String(month).padStart(2, "0")}`;
}

type Row = typeof import("./tables").reportSchedules.$inferSelect;


export function createReportScheduleService({ db, deps, log = silentLogger, now = Date.now, tickMs = TICK_MS, leads = () => true, send }: ReportScheduleOptions) {
  const { orm } = db;
  const { reportSchedules: table, notificationChannels: channels } = db.t;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let started = false;

  const toPublic = async (r: Row): Promise<ReportSchedule> => ({
    ...r,
    targetKind: r.targetKind as ReportTargetKind,
    targetName: await resolveTarget(deps, r.targetKind as ReportTargetKind, r.targetRef).then((x) => x.name, () => null),
    language: r.language as ReportSchedule["language"],
  });

  const row = async (id: number) => {
    const r = await first(orm.select().from(table).where(eq(table.id, id)));
    if (!r) throw notFound("REPORT_SCHEDULE_NOT_FOUND", "Report schedule not found");
    return r;
  };

  /** Checks a whole schedule as it would be stored; returns it cleaned (trimmed, recipients once each). */
  async function validated(input: ReportScheduleInput & { language: ReportSchedule["language"]; enabled: boolean }) {
    const name = input.name.trim();
    if (name.length < 1 || name.length > 100) throw badRequest("VALIDATION", "name must be 1-100 characters");
    if (!TARGET_KINDS.includes(input.targetKind)) throw badRequest("VALIDATION", `targetKind must be one of ${TARGET_KINDS.join(", ")}`);
    const targetRef = input.targetRef.trim();
    try {
      await resolveTarget(deps, input.targetKind, targetRef);
    } catch (e) {
      // The body names a target that is not there: the request is wrong, not the address.
      if (e instanceof HttpError && e.status === 404) throw badRequest("TARGET_NOT_FOUND", `target: ${e.message}`);
      throw e;
    }
    if (!isTimeZone(input.zone)) throw badRequest("ZONE_INVALID", "zone must be an IANA time zone (e.g. Europe/Berlin or UTC)");
    if (!LANGUAGES.includes(input.language)) throw badRequest("VALIDATION", "language must be zh-CN or en-US");
    // A team channel: someone's own contact channel is not the team's to mail reports through.
    const channel = await first(orm.select({ type: channels.type }).from(channels).where(and(eq(channels.id, input.channelId), isNull(channels.ownerUserId))));
    if (!channel) throw badRequest("CHANNEL_NOT_FOUND", "channelId: no such notification channel");
    if (channel.type !== "smtp") throw badRequest("CHANNEL_NOT_SMTP", "channelId must be an SMTP channel");
    const recipients = [...new Set(input.recipients.map((r) => r.trim()).filter(Boolean))];
    if (recipients.length < 1 || recipients.length > MAX_RECIPIENTS) throw badRequest("VALIDATION", `recipients must be 1-${MAX_RECIPIENTS} e-mail addresses`);
    const bad = recipients.find((r) => !isEmail(r));
    if (bad !== undefined) throw badRequest("VALIDATION", `recipients: "${bad.slice(0, 80)}" is not an e-mail address`);
    return { name, targetKind: input.targetKind, targetRef, zone: input.zone, language: input.language, channelId: input.channelId, recipients, enabled: input.enabled };
  }

  /** The report of `period` mailed to the schedule's recipients through its channel; never throws. */
  async function deliver(r: Row, period: Period): Promise<SendResult> {
    try {
      const channel = await first(orm.select().from(channels).where(eq(channels.id, r.channelId)));
      if (!channel || channel.type !== "smtp") return { ok: false, error: "The channel is not an SMTP channel", retryable: false };
      if (!channel.enabled) return { ok: false, error: `The SMTP channel "${channel.name}" is disabled`, retryable: false };
      const report = await buildReport(deps, r.targetKind as ReportTargetKind, r.targetRef, period, now());
      const mail = reportMail(report, r.language as ReportSchedule["language"]);
      return await sendMail(channel.config as ChannelConfigs["smtp"], { to: r.recipients, ...mail }, send);
    } catch (e) {
      // The target deleted since (resolveTarget's 404), or the database: said in last_error, not retried.
      return { ok: false, error: String((e as Error)?.message ?? e), retryable: false };
    }
  }

  /** Mails a schedule's month if it is due and this caller wins the claim. */
  async function runOne(r: Row, at: number, rolledUntil: number) {
    const month = previousMonth(at, r.zone);
    if (r.lastPeriod !== null && r.lastPeriod >= month) return;
    const period = parsePeriod(month, r.zone);
    if (typeof period === "string" || rolledUntil < period.to) return;
    if (r.retryAfter !== null && at < r.retryAfter) return;
    // The claim: only the caller whose update changes the row sends (another node, or this one ticking twice, finds
    // last_period already at the month).
    const claimed = await orm
      .update(table)
      .set({ lastPeriod: month })
      .where(and(eq(table.id, r.id), eq(table.enabled, true), or(isNull(table.lastPeriod), lt(table.lastPeriod, month))))
      .returning({ id: table.id });
    if (claimed.length === 0) return;
    const result = await deliver(r, period);
    if (result.ok) {
      await orm.update(table).set({ lastSentAt: now(), lastError: null, retryAttempts: 0, retryAfter: null }).where(eq(table.id, r.id));
      log.info("monthly report mailed", { scheduleId: r.id, month, recipients: r.recipients.length });
      return;
    }
    const attempts = r.retryAttempts + 1;
    const again = result.retryable && attempts < MAX_ATTEMPTS;
    const lastError = `${month}: ${result.error}`;
    if (again) {
      // Released only if still ours: back to the month it had, so a later tick (here or on another node, after the
      // wait) claims it again.
      const retryAfter = at + RETRY_WAITS_MS[Math.min(attempts, RETRY_WAITS_MS.length) - 1]!;
      await orm
        .update(table)
        .set({ lastError, retryAttempts: attempts, retryAfter, lastPeriod: r.lastPeriod })
        .where(and(eq(table.id, r.id), eq(table.lastPeriod, month)));
    } else await orm.update(table).set({ lastError, retryAttempts: 0, retryAfter: null }).where(eq(table.id, r.id));
    log.warn("monthly report mail failed", { scheduleId: r.id, month, attempts, retry: again, error: result.error });
  }

  /** One look at every enabled schedule (the leader's; others skip). */
  async function tick(at = now()): Promise<void> {
    if (!leads()) return;
    const rolledUntil = (await readWatermarks(db)).hourly;
    if (rolledUntil === null) return;
    const rows = await orm.select().from(table).where(eq(table.enabled, true)).orderBy(asc(table.id));
    for (const r of rows) {
      try {
        await runOne(r, at, rolledUntil);
      } catch (e) {
        log.error("monthly report failed", { scheduleId: r.id, error: String((e as Error)?.message ?? e) });
      }
    }
  }

  function wake() {
    if (!started || running) return;
    running = tick()
      .catch((e) => log.error("monthly reports failed", { error: String((e as Error)?.message ?? e) }))
      .finally(() => {
        running = null;
        if (started) timer = setTimeout(wake, tickMs);
      });
  }

  return {
    tick,
    previousMonth,
    list: async (): Promise<ReportSchedule[]> => Promise.all((await orm.select().from(table).orderBy(asc(table.id))).map(toPublic)),
    get: async (id: number) => toPublic(await row(id)),

    async create(input: ReportScheduleInput & { language: ReportSchedule["language"] }): Promise<ReportSchedule> {
      const v = await validated({ ...input, enabled: input.enabled ?? true });
      const at = now();
      const [created] = await orm
        .insert(table)
        .values({ ...v, lastPeriod: previousMonth(at, v.zone), createdAt: at, updatedAt: at })
        .returning();
      return toPublic(created!);
    },

    async update(id: number, patch: Partial<ReportScheduleInput>): Promise<ReportSchedule> {
      const current = await toPublic(await row(id));
      const v = await validated({ ...current, ...patch, enabled: patch.enabled ?? current.enabled, language: patch.language ?? current.language });
      // An edit (a fixed channel, other recipients) is tried at the next tick rather than after the retry's wait.
      await orm.update(table).set({ ...v, retryAfter: null, updatedAt: now() }).where(eq(table.id, id));
      return toPublic(await row(id));
    },

    async remove(id: number) {
      await row(id);
      await orm.delete(table).where(eq(table.id, id));
    },

    /** Mails last month's report now (trying a schedule out): last_period and the rest stay as they are. */
    async sendNow(id: number): Promise<SendResult & { period: string }> {
      const r = await row(id);
      const month = previousMonth(now(), r.zone);
      const period = parsePeriod(month, r.zone);
      if (typeof period === "string") throw badRequest("ZONE_INVALID", period);
      return { ...(await deliver(r, period)), period: month };
    },

    get running() {
      return started;
    },
    /** Looks shortly after start (a restart on the 1st catches up at once), then every tick. */
    start(firstDelayMs = Math.min(tickMs, 10_000)) {
      if (started) return;
      started = true;
      timer = setTimeout(wake, firstDelayMs);
    },
    async stop() {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}

export type ReportScheduleService = ReturnType<typeof createReportScheduleService>;
