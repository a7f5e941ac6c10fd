// Status-page subscribers: double opt-in by mail, incident updates and maintenance notices mailed through the
// instance's SMTP channel (the first enabled one), one-click unsubscribe. Addresses never leave the server except to
// an admin. Notices are rows first (status_notices) and mailed subscriber by subscriber with a cursor, so a restart
// or an SMTP outage delays them but loses and repeats none (only the one mail in flight at a crash can repeat).
import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, eq, gt, isNotNull, isNull, lte, lt } from "drizzle-orm";
import { first, isUniqueViolation, type Db } from "../db/database";
import type { EventBus } from "../events";
import { badRequest, HttpError, notFound } from "../http/errors";
import { silentLogger, type Logger } from "../log";
import { sendMail } from "../notifications/providers/smtp";
import type { SendContext } from "../notifications/providers/provider";
import type { ChannelConfigs, NotificationLanguage } from "../notifications/public";
import { incidentsOf } from "../status/view";
import { DEFAULT_PAGE_ID, type StoredPage } from "../status/store";
import { confirmMail, incidentNotice, maintenanceNotice, noticeMail, type Notice } from "./mail";
import { EMAIL_MAX } from "./limits";
import type { PublicSubscriber, SubscriberList } from "./public";

/** A confirmation link works this long. */
export const CONFIRM_TTL_MS = 24 * 3_600_000;
/** One confirmation mail per address and page per this long (asking again meanwhile sends nothing). */
export const RESEND_MS = 10 * 60_000;
/** Subscribe requests from one address (IP) per window. */
export const IP_LIMIT = 5;
export const IP_WINDOW_MS = 15 * 60_000;
/** Pending subscriptions never confirmed are forgotten after this. */
const PENDING_KEEP_MS = 7 * 24 * 3_600_000;
/** A notice still unsent after this (no SMTP channel, a server refusing for days) is dropped. */
const NOTICE_KEEP_MS = 3 * 24 * 3_600_000;
const RETRY_MS = [30_000, 120_000, 600_000, 1_800_000];
const SWEEP_MS = 60_000;
const BATCH = 50;
const EMAIL = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:"]+$/;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const token = () => randomBytes(24).toString("base64url");

export interface SubscriberServiceOptions {
  db: Db;
  bus: EventBus;
  log?: Logger;
  now?: () => number;
  /** The pages (the status service's, cached). */
  pages: () => Promise<StoredPage[]>;
  /** The instance's message language and zone. */
  settings: () => Promise<{ language: NotificationLanguage; timeZone: string }>;
  /** SMTP requests: timeout and the address policy. */
  send: Pick<SendContext, "timeoutMs" | "hostProblem">;
  /** Whether this node mails (with several nodes, the leader). */
  leads?: () => boolean;
}

/** Stands for the address a subscriber used, in a stored notice's lines: each mail gets its own. */
const BASE = "⟨base⟩";
const pagePath = (page: StoredPage) => `/status${page.id === DEFAULT_PAGE_ID ? "" : `/${page.slug}`}`;
const pageName = (page: StoredPage) => page.title || "Status";

export function createSubscriberService({ db, bus, log = silentLogger, now = Date.now, pages, settings, send, leads = () => true }: SubscriberServiceOptions) {
  const { orm } = db;
  const { statusSubscribers: subs, statusNotices: notices, notificationChannels: channels } = db.t;
  const ipHits = new Map<string, { count: number; since: number }>();

  /** The first enabled SMTP channel's settings, or null: no mail can go out. */
  async function smtp(): Promise<ChannelConfigs["smtp"] | null> {
    const row = await first(orm.select({ config: channels.config }).from(channels).where(and(eq(channels.type, "smtp"), eq(channels.enabled, true))).orderBy(asc(channels.id)).limit(1));
    return (row?.config as ChannelConfigs["smtp"] | undefined) ?? null;
  }

  /** Subscriptions are offered on public pages while an SMTP channel can mail. */
  const available = async (page: StoredPage) => page.visibility === "public" && (await smtp()) !== null;

  function limitIp(ip: string) {
    const at = now();
    const hit = ipHits.get(ip);
    if (!hit || at - hit.since >= IP_WINDOW_MS) {
      ipHits.set(ip, { count: 1, since: at });
      if (ipHits.size > 10_000) for (const [k, v] of ipHits) if (at - v.since >= IP_WINDOW_MS) ipHits.delete(k);
      return;
    }
    if (hit.count >= IP_LIMIT) throw new HttpError(429, "TOO_MANY_REQUESTS", "Too many subscriptions from your address: try again later", { retryAfter: Math.ceil((hit.since + IP_WINDOW_MS - at) / 1000) });
    hit.count++;
  }

  // --- notices: written as rows, mailed by the worker -------------------------------------------------------------
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let started = false;

  async function queue(page: StoredPage, notice: Notice) {
    await orm.insert(notices).values({ pageId: page.id, subject: notice.subject, lines: notice.lines, createdAt: now(), nextAttemptAt: now() });
    wake();
  }

  async function noticeFor(make: (page: StoredPage, url: string, lang: NotificationLanguage, zone: string) => Notice | null, onPages: (page: StoredPage) => boolean) {
    const { language, timeZone } = await settings();
    for (const page of await pages()) {
      if (page.visibility !== "public" || !onPages(page)) continue;
      // Has it anyone to tell? (Most pages have no subscribers: no row then.)
      const someone = await first(orm.select({ id: subs.id }).from(subs).where(and(eq(subs.pageId, page.id), isNotNull(subs.confirmedAt))).limit(1));
      if (!someone) continue;
      // The link is completed per subscriber (the address they used).
      const notice = make(page, `${BASE}${pagePath(page)}`, language, timeZone);
      if (notice) await queue(page, notice);
    }
  }

  bus.on("incident.update", ({ incident, update }) => {
    void noticeFor((page, path, lang, zone) => incidentNotice(pageName(page), path, incident, update, lang, zone), (page) => incidentsOf(page, [incident]).length > 0)
      .catch((e) => log.error("subscriber notice failed", { error: String(e) }));
  });
  bus.on("maintenance.created", ({ window }) => {
    const covers = (page: StoredPage) =>
      window.scope === "all" || window.monitorIds.some((id) => page.monitorIds.includes(id)) || window.agentIds.some((id) => page.agentIds.includes(id));
    void noticeFor((page, path, lang, zone) => maintenanceNotice(pageName(page), path, window, lang, zone), covers).catch((e) => log.error("subscriber notice failed", { error: String(e) }));
  });

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

  /** Mails what is due; returns when to look again. */
  async function work(): Promise<number> {
    const at = now();
    await orm.delete(subs).where(and(isNull(subs.confirmedAt), lt(subs.createdAt, at - PENDING_KEEP_MS)));
    await orm.delete(notices).where(lt(notices.createdAt, at - NOTICE_KEEP_MS));
    if (!leads()) return at + SWEEP_MS;
    const config = await smtp();
    const due = await orm.select().from(notices).where(and(isNull(notices.doneAt), lte(notices.nextAttemptAt, at))).orderBy(asc(notices.id)).limit(10);
    const { language } = await settings();
    for (const notice of due) {
      if (!config) {
        await orm.update(notices).set({ nextAttemptAt: at + RETRY_MS.at(-1)! }).where(eq(notices.id, notice.id));
        continue;
      }
      let cursor = notice.cursor;
      for (;;) {
        const batch = await orm
          .select({ id: subs.id, email: subs.email, token: subs.unsubscribeToken, baseUrl: subs.baseUrl })
          .from(subs)
          .where(and(eq(subs.pageId, notice.pageId), gt(subs.id, cursor), isNotNull(subs.confirmedAt), lte(subs.confirmedAt, notice.createdAt)))
          .orderBy(asc(subs.id))
          .limit(BATCH);
        if (!batch.length) {
          await orm.update(notices).set({ doneAt: now(), cursor }).where(eq(notices.id, notice.id));
          break;
        }
        let retryable = false;
        for (const s of batch) {
          const lines = notice.lines.map((l) => l.replaceAll(BASE, s.baseUrl));
          const mail = noticeMail({ subject: notice.subject, lines }, `${s.baseUrl}/status/unsubscribe?token=${s.token}`, `${s.baseUrl}/api/status/subscriptions/unsubscribe?token=${s.token}`, language);
          const result = await sendMail(config, { to: s.email, ...mail }, send);
          if (!result.ok && result.retryable) {
            const attempts = notice.attempts + 1;
            await orm.update(notices).set({ cursor, attempts, nextAttemptAt: now() + RETRY_MS[Math.min(attempts, RETRY_MS.length) - 1]! }).where(eq(notices.id, notice.id));
            log.warn("subscriber mail failed, will retry", { noticeId: notice.id, error: result.error });
            retryable = true;
            break;
          }
          // Sent, or refused for good for this address (a 5xx for a dead mailbox): either way the next one.
          if (!result.ok) log.warn("subscriber mail refused", { noticeId: notice.id, subscriberId: s.id, error: result.error });
          cursor = s.id;
          await orm.update(notices).set({ cursor }).where(eq(notices.id, notice.id));
        }
        if (retryable) break;
      }
    }
    const next = await first(orm.select({ at: notices.nextAttemptAt }).from(notices).where(isNull(notices.doneAt)).orderBy(asc(notices.nextAttemptAt)).limit(1));
    return next ? Math.max(next.at, now() + 1_000) : now() + SWEEP_MS;
  }

  return {
    available,

    /**
     * Starts a subscription: a confirmation mail unless the address is already confirmed or was mailed within
     * RESEND_MS. The reply is the same either way, so nobody learns who is subscribed.
     */
    async subscribe(page: StoredPage, rawEmail: unknown, ip: string, baseUrl: string): Promise<void> {
      const email = typeof rawEmail === "string" ? rawEmail.trim().toLowerCase() : "";
      if (!email || email.length > EMAIL_MAX || !EMAIL.test(email)) throw badRequest("EMAIL_INVALID", "Enter a valid e-mail address");
      if (page.visibility !== "public") throw notFound("SUBSCRIPTIONS_UNAVAILABLE", "This page offers no subscriptions");
      const config = await smtp();
      if (!config) throw notFound("SUBSCRIPTIONS_UNAVAILABLE", "This page offers no subscriptions");
      limitIp(ip);
      const at = now();
      const secret = token();
      const values = { confirmHash: sha256(secret), confirmExpiresAt: at + CONFIRM_TTL_MS, baseUrl, mailedAt: at };
      const existing = await first(orm.select().from(subs).where(and(eq(subs.pageId, page.id), eq(subs.email, email))));
      if (existing?.confirmedAt || (existing && at - existing.mailedAt < RESEND_MS)) return;
      if (existing) await orm.update(subs).set(values).where(eq(subs.id, existing.id));
      else {
        try {
          await orm.insert(subs).values({ pageId: page.id, email, unsubscribeToken: token(), createdAt: at, ...values });
        } catch (e) {
          if (isUniqueViolation(e)) return; // the same address at the same moment: one mail is enough
          throw e;
        }
      }
      const { language } = await settings();
      const mail = confirmMail(pageName(page), `${baseUrl}/status/confirm?token=${secret}`, language);
      const result = await sendMail(config, { to: email, ...mail }, send);
      if (!result.ok) {
        log.warn("subscription confirmation mail failed", { pageId: page.id, error: result.error });
        // Let the visitor try again at once rather than wait for RESEND_MS after a mail that never left.
        await orm.update(subs).set({ mailedAt: 0 }).where(and(eq(subs.pageId, page.id), eq(subs.email, email)));
        throw new HttpError(502, "MAIL_FAILED", "The confirmation mail could not be sent: try again later");
      }
    },

    /** Confirms by the link's token: the page it was for, or a 400 for an unknown or expired link. */
    async confirm(secret: string): Promise<StoredPage> {
      const row = secret ? await first(orm.select().from(subs).where(eq(subs.confirmHash, sha256(secret)))) : undefined;
      if (!row || row.confirmExpiresAt === null || row.confirmExpiresAt < now()) throw badRequest("SUBSCRIPTION_LINK_INVALID", "This confirmation link is invalid or has expired");
      await orm.update(subs).set({ confirmedAt: now(), confirmHash: null, confirmExpiresAt: null }).where(eq(subs.id, row.id));
      const page = (await pages()).find((p) => p.id === row.pageId);
      if (!page) throw badRequest("SUBSCRIPTION_LINK_INVALID", "This confirmation link is invalid or has expired");
      return page;
    },

    /** Ends a subscription by its unsubscribe token: whether there was one. */
    async unsubscribe(secret: string): Promise<boolean> {
      if (!secret) return false;
      return (await orm.delete(subs).where(eq(subs.unsubscribeToken, secret)).returning({ id: subs.id })).length > 0;
    },

    /** For admins: a page's subscribers, newest first, with counts. */
    async list(pageId: number): Promise<SubscriberList> {
      const rows = await orm.select().from(subs).where(eq(subs.pageId, pageId)).orderBy(asc(subs.id));
      const subscribers: PublicSubscriber[] = rows.reverse().map((r) => ({ id: r.id, email: r.email, confirmed: r.confirmedAt !== null, createdAt: r.createdAt, confirmedAt: r.confirmedAt }));
      return { confirmed: subscribers.filter((s) => s.confirmed).length, pending: subscribers.filter((s) => !s.confirmed).length, subscribers };
    },

    async remove(pageId: number, id: number): Promise<boolean> {
      return (await orm.delete(subs).where(and(eq(subs.pageId, pageId), eq(subs.id, id))).returning({ id: subs.id })).length > 0;
    },

    /** How many confirmed subscribers a page has (the page list shows it). */
    async counts(): Promise<Map<number, number>> {
      const rows = await orm.select({ pageId: subs.pageId, n: count() }).from(subs).where(isNotNull(subs.confirmedAt)).groupBy(subs.pageId);
      return new Map(rows.map((r) => [r.pageId, Number(r.n)]));
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

export type SubscriberService = ReturnType<typeof createSubscriberService>;
