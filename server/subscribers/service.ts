// Status-page subscribers: double opt-in by mail, incident updates and maintenance notices mailed through the
// instance's SMTP channel (the first enabled one), one-click unsubscribe. Addresses never leave the server except to
// an admin. Every mail is queued and sent by the worker in mailer.ts.
import { and, asc, count, eq, isNotNull, isNull } from "drizzle-orm";
import { first, type Db } from "../db/database";
import type { EventBus } from "../events";
import { badRequest, HttpError, notFound } from "../http/errors";
import { silentLogger, type Logger } from "../log";
import type { SendContext } from "../notifications/providers/provider";
import type { ChannelConfigs, NotificationLanguage } from "../notifications/public";
import { incidentsOf } from "../status/view";
import { DEFAULT_PAGE_ID, type StoredPage } from "../status/store";
import { confirmNotice, incidentNotice, maintenanceNotice, type Notice } from "./mail";
import { BASE, createSubscriberMailer, linkHash } from "./mailer";
import { EMAIL_MAX } from "./limits";
import type { PublicSubscriber, SubscriberList } from "./public";

/** Subscribe requests from one address (IP) per window. */
export const IP_LIMIT = 5;
export const IP_WINDOW_MS = 15 * 60_000;
const EMAIL = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:"]+$/;

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

/** What a mailed link is for: its page, and the address masked (the link's holder knows it; a page may be shown). */
export interface LinkTarget {
  page: StoredPage;
  email: string;
}

/** "visitor@example.com" → "v•••@example.com": enough to tell which of one's addresses, not to learn one. */
export const maskEmail = (email: string) => `${email.slice(0, 1)}•••${email.slice(email.lastIndexOf("@"))}`;

const pagePath = (page: StoredPage) => `/status${page.id === DEFAULT_PAGE_ID ? "" : `/${page.slug}`}`;
const pageName = (page: StoredPage) => page.title || "Status";

export function createSubscriberService({ db, bus, log = silentLogger, now = Date.now, pages, settings, send, leads = () => true }: SubscriberServiceOptions) {
  const { orm } = db;
  const { statusSubscribers: subs, notificationChannels: channels } = db.t;
  const ipHits = new Map<string, { count: number; since: number }>();

  /** The first enabled SMTP channel's settings, or null: no mail can go out. */
  async function smtp(): Promise<ChannelConfigs["smtp"] | null> {
    // A team channel's: someone's own mail server is not the status page's.
    const row = await first(orm.select({ config: channels.config }).from(channels).where(and(eq(channels.type, "smtp"), eq(channels.enabled, true), isNull(channels.ownerUserId))).orderBy(asc(channels.id)).limit(1));
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

  /** The pending subscription a confirmation link is for, and its page; 400 if unknown or expired. */
  async function pendingByLink(secret: string) {
    const row = secret ? await first(orm.select().from(subs).where(eq(subs.confirmHash, linkHash(secret)))) : undefined;
    const page = row && row.confirmExpiresAt !== null && row.confirmExpiresAt >= now() ? (await pages()).find((p) => p.id === row.pageId) : undefined;
    if (!row || !page) throw badRequest("SUBSCRIPTION_LINK_INVALID", "This confirmation link is invalid or has expired");
    return { row, page };
  }

  const mailer = createSubscriberMailer({ db, log, now, settings, send, leads, smtp });

  // --- notices: written as rows, mailed by the worker -------------------------------------------------------------
  async function noticeFor(make: (page: StoredPage, url: string, lang: NotificationLanguage, zone: string) => Notice | null, onPages: (page: StoredPage) => boolean) {
    const { language, timeZone } = await settings();
    for (const page of await pages()) {
      if (page.visibility !== "public" || !onPages(page)) continue;
      // Has it anyone to tell? (Most pages have no subscribers: no row then.)
      const someone = await first(orm.select({ id: subs.id }).from(subs).where(and(eq(subs.pageId, page.id), isNotNull(subs.confirmedAt))).limit(1));
      if (!someone) continue;
      // The link is completed per subscriber (the address they used).
      const notice = make(page, `${BASE}${pagePath(page)}`, language, timeZone);
      if (notice) await mailer.queue({ pageId: page.id, ...notice });
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

  return {
    available,

    /**
     * Starts a subscription: queues a confirmation mail for the worker, which sends it unless the address is already
     * confirmed or was mailed within RESEND_MS. Every valid address costs the same here (the SMTP channel lookup, the
     * cached settings, one insert; only the worker reads the address's state), so neither the reply nor its time
     * tells who is subscribed.
     */
    async subscribe(page: StoredPage, rawEmail: unknown, ip: string, baseUrl: string): Promise<void> {
      const email = typeof rawEmail === "string" ? rawEmail.trim().toLowerCase() : "";
      if (!email || email.length > EMAIL_MAX || !EMAIL.test(email)) throw badRequest("EMAIL_INVALID", "Enter a valid e-mail address");
      if (page.visibility !== "public" || !(await smtp())) throw notFound("SUBSCRIPTIONS_UNAVAILABLE", "This page offers no subscriptions");
      limitIp(ip);
      const { language } = await settings();
      await mailer.queue({ pageId: page.id, ...confirmNotice(pageName(page), baseUrl, language), email, baseUrl });
    },

    /** What a confirmation link is for, changing nothing (its page asks before it confirms); 400 if unknown or expired. */
    async confirmLink(secret: string): Promise<LinkTarget> {
      const { row, page } = await pendingByLink(secret);
      return { page, email: maskEmail(row.email) };
    },

    /** Confirms by the link's token: the page it was for, or a 400 for an unknown or expired link. */
    async confirm(secret: string): Promise<StoredPage> {
      const { row, page } = await pendingByLink(secret);
      await orm.update(subs).set({ confirmedAt: now(), confirmHash: null, confirmExpiresAt: null }).where(eq(subs.id, row.id));
      return page;
    },

    /** What an unsubscribe link is for, changing nothing (mail scanners open links); null if it has none. */
    async unsubscribeLink(secret: string): Promise<LinkTarget | null> {
      const row = secret ? await first(orm.select({ pageId: subs.pageId, email: subs.email }).from(subs).where(eq(subs.unsubscribeToken, secret))) : undefined;
      const page = row && (await pages()).find((p) => p.id === row.pageId);
      return row && page ? { page, email: maskEmail(row.email) } : null;
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
      return mailer.running;
    },
    start: mailer.start,
    stop: mailer.stop,
    /** Resolves when the mail in progress is done (tests). */
    idle: mailer.idle,
  };
}

export type SubscriberService = ReturnType<typeof createSubscriberService>;
