// The subscriber mail worker. Everything it mails is a status_notices row first: notices for a page's confirmed
// subscribers, mailed subscriber by subscriber with a cursor, and subscribe requests, each a confirmation mail for one
// address. So a restart or an SMTP outage delays mail but loses and repeats none (only the one mail in flight at a
// crash can repeat), and a subscribe request never waits for the mail server.
import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNotNull, isNull, lte, lt } from "drizzle-orm";
import { first, type Db } from "../db/database";
import type { Logger } from "../log";
import { sendMail } from "../notifications/providers/smtp";
import type { SendContext } from "../notifications/providers/provider";
import type { ChannelConfigs, NotificationLanguage } from "../notifications/public";
import { confirmMail, noticeMail, type Notice } from "./mail";

/** A confirmation link works this long. */
export const CONFIRM_TTL_MS = 24 * 3_600_000;
/** One confirmation mail per address and page per this long (asking again meanwhile sends nothing). */
export const RESEND_MS = 10 * 60_000;
/** Waits before the next attempt after a mail server's temporary refusal (the last one repeats). */
export const RETRY_MS = [30_000, 120_000, 600_000, 1_800_000];
/** Pending subscriptions never confirmed are forgotten after this. */
const PENDING_KEEP_MS = 7 * 24 * 3_600_000;
/** A notice still unsent after this (no SMTP channel, a server refusing for days) is dropped. */
const NOTICE_KEEP_MS = 3 * 24 * 3_600_000;
const SWEEP_MS = 60_000;
const BATCH = 50;

/** Stands for the address a subscriber used, in a stored notice's lines: each mail gets its own. */
export const BASE = "⟨base⟩";

/** What a confirmation link's token is stored as. */
export const linkHash = (secret: string) => createHash("sha256").update(secret).digest("hex");
const randomToken = () => randomBytes(24).toString("base64url");

export interface SubscriberMailerOptions {
  db: Db;
  log: Logger;
  now: () => number;
  settings: () => Promise<{ language: NotificationLanguage }>;
  send: Pick<SendContext, "timeoutMs" | "hostProblem">;
  leads: () => boolean;
  /** The SMTP channel that mails, or null. */
  smtp: () => Promise<ChannelConfigs["smtp"] | null>;
}

export type QueuedMail = Notice & { pageId: number } & ({ email?: undefined; baseUrl?: undefined } | { email: string; baseUrl: string });

export function createSubscriberMailer({ db, log, now, settings, send, leads, smtp }: SubscriberMailerOptions) {
  const { orm } = db;
  const { statusSubscribers: subs, statusNotices: notices } = db.t;
  type Row = typeof notices.$inferSelect;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let started = false;

  function schedule(at: number) {
    if (!started) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(wake, Math.max(0, Math.min(at - now(), SWEEP_MS)));
  }

  function wake() {
    if (!started) return;
    if (running) return void running.then(() => wake());
    running = work()
      .then((next) => schedule(next))
      .catch((e) => {
        log.error("subscriber mail failed", { error: String(e) });
        schedule(now() + SWEEP_MS);
      })
      .finally(() => {
        running = null;
      });
  }

  const postpone = (row: Row) => {
    const attempts = row.attempts + 1;
    return { attempts, nextAttemptAt: now() + RETRY_MS[Math.min(attempts, RETRY_MS.length) - 1]! };
  };

  /**
   * One subscribe request: a confirmation mail with a new link, unless the address is confirmed already or was mailed
   * within RESEND_MS. The request is deleted once settled; a temporary refusal keeps it for a later attempt.
   */
  async function confirmation(config: ChannelConfigs["smtp"], row: Row) {
    const at = now();
    const email = row.email!;
    const where = and(eq(subs.pageId, row.pageId), eq(subs.email, email));
    const existing = await first(orm.select({ confirmedAt: subs.confirmedAt, mailedAt: subs.mailedAt }).from(subs).where(where));
    if (!existing?.confirmedAt && !(existing && at - existing.mailedAt < RESEND_MS)) {
      // The token is made now, not stored with the request: only its hash is ever kept.
      const secret = randomToken();
      const link = { confirmHash: linkHash(secret), confirmExpiresAt: at + CONFIRM_TTL_MS, baseUrl: row.baseUrl! };
      await orm
        .insert(subs)
        .values({ pageId: row.pageId, email, unsubscribeToken: randomToken(), createdAt: at, mailedAt: 0, ...link })
        .onConflictDoUpdate({ target: [subs.pageId, subs.email], set: link });
      const result = await sendMail(config, { to: email, ...confirmMail(row, secret) }, send);
      if (!result.ok && result.retryable) {
        log.warn("subscription confirmation mail failed, will retry", { noticeId: row.id, error: result.error });
        return void (await orm.update(notices).set(postpone(row)).where(eq(notices.id, row.id)));
      }
      if (result.ok) await orm.update(subs).set({ mailedAt: now() }).where(where);
      else log.warn("subscription confirmation mail refused", { noticeId: row.id, error: result.error });
    }
    await orm.delete(notices).where(eq(notices.id, row.id));
  }

  /** Mails the due confirmations, oldest first (each attempt settles or postpones its row, so this ends). */
  async function confirmations(config: ChannelConfigs["smtp"]) {
    const at = now();
    for (;;) {
      const due = await orm.select().from(notices).where(and(isNotNull(notices.email), isNull(notices.doneAt), lte(notices.nextAttemptAt, at))).orderBy(asc(notices.id)).limit(BATCH);
      if (!due.length) return;
      for (const row of due) await confirmation(config, row);
    }
  }

  /** Mails one notice to the page's confirmed subscribers after its cursor, until done or a temporary refusal. */
  async function notice(config: ChannelConfigs["smtp"], row: Row, language: NotificationLanguage) {
    let cursor = row.cursor;
    for (;;) {
      const batch = await orm
        .select({ id: subs.id, email: subs.email, token: subs.unsubscribeToken, baseUrl: subs.baseUrl })
        .from(subs)
        .where(and(eq(subs.pageId, row.pageId), gt(subs.id, cursor), isNotNull(subs.confirmedAt), lte(subs.confirmedAt, row.createdAt)))
        .orderBy(asc(subs.id))
        .limit(BATCH);
      if (!batch.length) return void (await orm.update(notices).set({ doneAt: now(), cursor }).where(eq(notices.id, row.id)));
      for (const s of batch) {
        const lines = row.lines.map((l) => l.replaceAll(BASE, s.baseUrl));
        const mail = noticeMail({ subject: row.subject, lines }, `${s.baseUrl}/status/unsubscribe?token=${s.token}`, `${s.baseUrl}/api/status/subscriptions/unsubscribe?token=${s.token}`, language);
        const result = await sendMail(config, { to: s.email, ...mail }, send);
        if (!result.ok && result.retryable) {
          await orm.update(notices).set({ cursor, ...postpone(row) }).where(eq(notices.id, row.id));
          log.warn("subscriber mail failed, will retry", { noticeId: row.id, error: result.error });
          return;
        }
        // Sent, or refused for good for this address (a 5xx for a dead mailbox): either way the next one.
        if (!result.ok) log.warn("subscriber mail refused", { noticeId: row.id, subscriberId: s.id, error: result.error });
        cursor = s.id;
        await orm.update(notices).set({ cursor }).where(eq(notices.id, row.id));
      }
      // A long notice lets the confirmations asked for meanwhile go out between its batches.
      await confirmations(config);
    }
  }

  /** Mails what is due; returns when to look again. */
  async function work(): Promise<number> {
    const at = now();
    await orm.delete(subs).where(and(isNull(subs.confirmedAt), lt(subs.createdAt, at - PENDING_KEEP_MS)));
    await orm.delete(notices).where(lt(notices.createdAt, at - NOTICE_KEEP_MS));
    if (!leads()) return at + SWEEP_MS;
    const config = await smtp();
    if (!config) {
      await orm.update(notices).set({ nextAttemptAt: at + RETRY_MS.at(-1)! }).where(and(isNull(notices.doneAt), lte(notices.nextAttemptAt, at)));
    } else {
      await confirmations(config);
      const due = await orm.select().from(notices).where(and(isNull(notices.email), isNull(notices.doneAt), lte(notices.nextAttemptAt, at))).orderBy(asc(notices.id)).limit(10);
      const { language } = await settings();
      for (const row of due) await notice(config, row, language);
    }
    const next = await first(orm.select({ at: notices.nextAttemptAt }).from(notices).where(isNull(notices.doneAt)).orderBy(asc(notices.nextAttemptAt)).limit(1));
    return next ? Math.max(next.at, now() + 1_000) : now() + SWEEP_MS;
  }

  return {
    /** Stores a mail to send and wakes the worker (this node's; with several nodes the leader mails). */
    async queue({ pageId, subject, lines, email, baseUrl }: QueuedMail) {
      await orm.insert(notices).values({ pageId, subject, lines, email, baseUrl, createdAt: now(), nextAttemptAt: now() });
      wake();
    },
    get running() {
      return started;
    },
    start() {
      started = true;
      wake();
    },
    async stop() {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
    /** Resolves when the mail in progress is done (tests). */
    idle: async () => {
      while (running) await running;
    },
  };
}
