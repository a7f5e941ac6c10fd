// The persistent outbox: every notification is in SQLite before it is sent, sent with a timeout, retried with backoff,
// and its outcome recorded. A restart (even SIGKILL) picks up where it stopped.
//
// Per channel, messages go one at a time and in order. Events wait as rows (notification_events) until the channel
// may send: the first goes out at once, and while events keep coming the channel waits longer between messages
// (1 s, 2 s, 4 s … up to a minute, and never faster than the provider's rate limit). Whatever piled up meanwhile
// leaves as one grouped message ("23 monitors down: …"), so a storm of 500 events is a dozen messages, not 500, and
// every event is still named in one of them. An event joins a message once, in the transaction that creates the
// message, so it can never go to the same channel twice. (Only a crash in the middle of an HTTP request can repeat a
// message: the provider may have taken it before the outcome was written. That is the at-least-once window of any
// outbox, and it is one request long.)
import { and, asc, count, eq, inArray, isNull, type SQL } from "drizzle-orm";
import type { Db } from "../db/open";
import { silentLogger, type Logger } from "../log";
import { renderMessage } from "./messages";
import { providerFor } from "./providers/index";
import type { NotificationMessage, SendContext, SendResult } from "./providers/provider";
import type { NotificationEvent } from "./public";
import type { NotificationStore } from "./store";
import { notificationEvents, notificationMessages } from "./tables";

/** Waits after failed tries 1, 2, …: seven tries over about half an hour. */
export const RETRY_DELAYS_MS = [10_000, 30_000, 60_000, 180_000, 480_000, 1_080_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Events gathered before the first message of a burst leaves (so simultaneous ones share it). */
const GATHER_MS = 500;
/** The storm pacing: the wait after a message doubles while events keep coming, from 1 s up to this. */
const MAX_GAP_MS = 60_000;
/** A channel quiet this long starts its next burst with a short wait again. */
const CALM_MS = 120_000;
/** At most this many events, and about this many characters of lines, in one message (Telegram's limit is 4 096). */
const MAX_EVENTS_PER_MESSAGE = 100;
const MAX_MESSAGE_CHARS = 3_500;

interface Pace {
  /** Not before this time may the channel send its next new message. */
  nextAt: number;
  gap: number;
  lastSentAt: number;
}

export interface OutboxOptions {
  db: Db;
  store: NotificationStore;
  ctx: SendContext;
  log?: Logger;
  now?: () => number;
}

export function createOutbox({ db, store, ctx, log = silentLogger, now = Date.now }: OutboxOptions) {
  const waitingEvents = (where: SQL | undefined) => db.select({ n: count() }).from(notificationEvents).where(where).get()!.n;
  const pace = new Map<number, Pace>();
  const busy = new Set<number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  let ticking: Promise<void> | null = null;
  let again = false;

  const paceOf = (channelId: number, minGap: number): Pace => {
    let p = pace.get(channelId);
    if (!p) pace.set(channelId, (p = { nextAt: 0, gap: minGap, lastSentAt: 0 }));
    return p;
  };

  /** Takes the channel's oldest waiting events into one new message (in one transaction) and returns it. */
  function composeMessage(channelId: number): { id: number; message: NotificationMessage } | null {
    const { language, timeZone } = store.getSettings();
    return db.transaction((tx) => {
      const waiting = tx
        .select({ id: notificationEvents.id, event: notificationEvents.event })
        .from(notificationEvents)
        .where(and(eq(notificationEvents.channelId, channelId), isNull(notificationEvents.messageId)))
        .orderBy(asc(notificationEvents.id))
        .limit(MAX_EVENTS_PER_MESSAGE)
        .all();
      if (!waiting.length) return null;
      // As many as fit: one line per event in a group message.
      let take = waiting.length;
      let message = renderMessage(waiting.map((w) => w.event), language, timeZone);
      while (take > 1 && message.lines.join("\n").length + message.title.length > MAX_MESSAGE_CHARS) {
        take = Math.max(1, Math.floor(take * 0.8));
        message = renderMessage(waiting.slice(0, take).map((w) => w.event), language, timeZone);
      }
      const row = tx.insert(notificationMessages).values({ channelId, message, createdAt: now(), nextAttemptAt: now() }).returning({ id: notificationMessages.id }).get();
      tx.update(notificationEvents)
        .set({ messageId: row.id })
        .where(inArray(notificationEvents.id, waiting.slice(0, take).map((w) => w.id)))
        .run();
      return { id: row.id, message };
    });
  }

  async function attempt(channelId: number, messageId: number, message: NotificationMessage, attempts: number): Promise<SendResult> {
    const channel = store.channelForSending(channelId);
    if (!channel) return { ok: false, error: "channel deleted", retryable: false };
    let result: SendResult;
    if (!channel.enabled) {
      // A disabled channel sends nothing; what was queued for it is closed, not held back for a flood on re-enable.
      result = { ok: false, error: "channel disabled", retryable: false };
    } else {
      try {
        result = await providerFor(channel.type).send(channel.config as never, message, ctx);
      } catch (e) {
        result = { ok: false, error: String((e as Error)?.message ?? e), retryable: true };
      }
    }
    const tries = attempts + 1;
    const at = now();
    if (result.ok) {
      db.update(notificationMessages).set({ status: "sent", attempts: tries, sentAt: at, nextAttemptAt: null, error: null }).where(eq(notificationMessages.id, messageId)).run();
      store.recordOutcome(channelId, { ok: true });
    } else if (result.retryable && tries < MAX_ATTEMPTS) {
      // Retry-After is honoured, up to half an hour (a provider asking for a day would stall the channel).
      const wait = Math.max(RETRY_DELAYS_MS[tries - 1], Math.min(result.retryAfterMs ?? 0, 30 * 60_000));
      db.update(notificationMessages).set({ attempts: tries, nextAttemptAt: at + wait, error: result.error }).where(eq(notificationMessages.id, messageId)).run();
      log.warn("notification send failed, will retry", { channelId, messageId, attempt: tries, error: result.error, retryInMs: wait });
    } else {
      db.update(notificationMessages).set({ status: "failed", attempts: tries, nextAttemptAt: null, error: result.error }).where(eq(notificationMessages.id, messageId)).run();
      store.recordOutcome(channelId, { ok: false, error: result.error });
      log.warn("notification failed", { channelId, messageId, attempts: tries, error: result.error });
    }
    return result;
  }

  /** One channel's next step: retry its pending message when due, or send what waits when its pace allows. */
  async function serveChannel(channelId: number, t: number): Promise<number | null> {
    const pending = db
      .select()
      .from(notificationMessages)
      .where(and(eq(notificationMessages.channelId, channelId), eq(notificationMessages.status, "pending")))
      .orderBy(asc(notificationMessages.id))
      .limit(1)
      .get();
    const channel = store.channelForSending(channelId);
    const minGap = channel ? Math.max(1_000, Math.ceil(60_000 / providerFor(channel.type).perMinute)) : 1_000;
    const p = paceOf(channelId, minGap);
    if (pending) {
      if ((pending.nextAttemptAt ?? 0) > t) return pending.nextAttemptAt;
      await attempt(channelId, pending.id, pending.message, pending.attempts);
      return t; // look again: more may be due
    }
    const first = db
      .select({ createdAt: notificationEvents.createdAt })
      .from(notificationEvents)
      .where(and(eq(notificationEvents.channelId, channelId), isNull(notificationEvents.messageId)))
      .orderBy(asc(notificationEvents.id))
      .limit(1)
      .get();
    if (!first) return null;
    // A full message's worth waiting goes at the provider's pace; fewer wait for the storm pacing and the gathering.
    const backlog = waitingEvents(and(eq(notificationEvents.channelId, channelId), isNull(notificationEvents.messageId)));
    const due = backlog >= MAX_EVENTS_PER_MESSAGE ? Math.max(p.lastSentAt + minGap, first.createdAt) : Math.max(p.nextAt, first.createdAt + GATHER_MS);
    if (due > t) return due;
    const composed = composeMessage(channelId);
    if (!composed) return null;
    p.gap = t - p.lastSentAt > CALM_MS ? minGap : Math.min(MAX_GAP_MS, Math.max(minGap, p.gap * 2));
    p.lastSentAt = t;
    p.nextAt = t + p.gap;
    await attempt(channelId, composed.id, composed.message, 0);
    return t;
  }

  /** Serves every channel with work; returns when the next thing falls due (or null: nothing waits). */
  async function tick(): Promise<number | null> {
    const t = now();
    const channels = new Set<number>([
      ...db.selectDistinct({ id: notificationEvents.channelId }).from(notificationEvents).where(isNull(notificationEvents.messageId)).all().map((r) => r.id),
      ...db.selectDistinct({ id: notificationMessages.channelId }).from(notificationMessages).where(eq(notificationMessages.status, "pending")).all().map((r) => r.id),
    ]);
    let next: number | null = null;
    await Promise.all(
      [...channels].filter((id) => !busy.has(id)).map(async (id) => {
        busy.add(id);
        try {
          let due: number | null;
          // Keep serving while something is due now (a backlog, retries that fell due together).
          do due = await serveChannel(id, now());
          while (due !== null && due <= now() && running);
          if (due !== null && (next === null || due < next)) next = due;
        } catch (e) {
          log.error("notification outbox failed", { channelId: id, error: String((e as Error)?.stack ?? e) });
          next = Math.min(next ?? Infinity, t + 5_000);
        } finally {
          busy.delete(id);
        }
      }),
    );
    return next;
  }

  function schedule(at: number | null) {
    if (!running || at === null) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(wake, Math.max(0, at - now()));
  }

  function wake() {
    if (!running) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = tick()
      .then((next) => {
        ticking = null;
        if (again) {
          again = false;
          wake();
        } else schedule(next);
      })
      .catch((e) => {
        ticking = null;
        log.error("notification outbox tick failed", { error: String(e) });
        schedule(now() + 5_000);
      });
  }

  return {
    /**
     * Queues an event for channels (durably, before returning). `key` identifies the event: the same key for the
     * same channel is ignored, so an event re-emitted after a restart is not sent twice. Returns how many channels
     * took it.
     */
    enqueue(channelIds: number[], event: NotificationEvent, key: string): number {
      if (!channelIds.length) return 0;
      const at = now();
      const inserted = db
        .insert(notificationEvents)
        .values(channelIds.map((channelId) => ({ channelId, eventKey: key, event, createdAt: at })))
        .onConflictDoNothing()
        .returning({ id: notificationEvents.id })
        .all().length;
      if (inserted) wake();
      return inserted;
    },

    /** Sends a test message to a channel now (not queued: the answer is the provider's verdict) and logs it. */
    async sendTest(channelId: number, event: NotificationEvent): Promise<SendResult> {
      const { language, timeZone } = store.getSettings();
      const message = renderMessage([event], language, timeZone);
      const row = db.insert(notificationMessages).values({ channelId, message, createdAt: now(), nextAttemptAt: null }).returning({ id: notificationMessages.id }).get();
      db.insert(notificationEvents).values({ channelId, eventKey: `test:${row.id}`, event, createdAt: now(), messageId: row.id }).run();
      // One try, final either way: a test that failed is reported, not retried behind the user's back.
      const channel = store.channelForSending(channelId);
      let result: SendResult;
      try {
        result = channel ? await providerFor(channel.type).send(channel.config as never, message, ctx) : { ok: false, error: "channel deleted", retryable: false };
      } catch (e) {
        result = { ok: false, error: String((e as Error)?.message ?? e), retryable: false };
      }
      db.update(notificationMessages)
        .set(result.ok ? { status: "sent", attempts: 1, sentAt: now() } : { status: "failed", attempts: 1, error: result.error })
        .where(eq(notificationMessages.id, row.id))
        .run();
      store.recordOutcome(channelId, result.ok ? { ok: true } : { ok: false, error: result.error });
      return result;
    },

    start() {
      running = true;
      wake(); // what a previous run left pending
    },

    /** Stops the timer and waits for sends in flight (their outcome is written). */
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await ticking;
    },

    /** For tests driving a fake clock: one pass over every channel. */
    tick,

    /** Messages waiting or retrying, and events not yet in a message (the /metrics outbox backlog). */
    backlog(): { messages: number; events: number } {
      return {
        messages: db.select({ n: count() }).from(notificationMessages).where(eq(notificationMessages.status, "pending")).get()!.n,
        // Per channel, so each count is an index seek: `message_id IS NULL` alone scans every event ever sent.
        events:
          db.$client
            .query<{ n: number }, []>(
              `SELECT coalesce(sum((SELECT count(*) FROM notification_events e WHERE e.channel_id = c.id AND e.message_id IS NULL)), 0) AS n
               FROM notification_channels c`,
            )
            .get()?.n ?? 0,
      };
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
