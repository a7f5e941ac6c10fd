// The persistent outbox: every notification is in the database before it is sent, sent with a timeout, retried with
// backoff, and its outcome recorded. A restart (even SIGKILL) picks up where it stopped.
//
// Per channel, messages go one at a time and in order. Events wait as rows (notification_events) until the channel
// may send: the first goes out at once, and while events keep coming the channel waits longer between messages
// (1 s, 2 s, 4 s … up to a minute, and never faster than the provider's rate limit). Whatever piled up meanwhile
// leaves as one grouped message ("23 monitors down: …"), so a storm of 500 events is a dozen messages, not 500, and
// every event is still named in one of them. An event joins a message once, in the transaction that creates the
// message, so it can never go to the same channel twice.
//
// Several nodes may share one PostgreSQL database, each running this outbox. A message is sent by the node that
// claims it: a short transaction marks it claimed (by this node, until a lease ends) — on PostgreSQL with row locks
// that skip rows another node is claiming at the same moment (FOR UPDATE SKIP LOCKED) — then the request goes out
// outside any transaction, then the outcome is written and the claim let go. Composing a message (taking a channel's
// waiting events) runs under a per-channel lock, and only while the channel has no pending message, so no event
// joins two messages and a channel's messages keep their order across nodes. The storm pacing is kept on the
// channel's row, so the nodes share it too. A node that dies mid-send leaves its claim to expire; then the message is
// claimable again. (So only a crash in the middle of an HTTP request can repeat a message: the provider may have
// taken it before the outcome was written. That is the at-least-once window of any outbox, one request long.)
//
// Quiet hours (quiet-hours.ts) hold events at composing: while the channel's (or its owner's) quiet hours last, only
// high-importance events (kept on each row when queued) join a message — none with holdDown — and the rest keep
// waiting as rows, in their order, until the period ends; then they leave as any waiting events do (grouped, paced).
// A held event is no message, so it has no attempts, and it never stands in front of a high event. A message composed
// before the period began is sent (and retried) as usual.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, asc, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { databaseClock } from "../cluster/leases";
import { first, type Db } from "../db/database";
import { silentLogger, type Logger } from "../log";
import { renderMessage } from "./messages";
import { heldUntil, importanceOf } from "./quiet-hours";
import { applyTemplates, type ChannelTemplates } from "./templates";
import { providerFor } from "./providers/index";
import type { NotificationMessage, SendContext, SendResult } from "./providers/provider";
import type { ChannelType, NotificationEvent } from "./public";
import type { NotificationStore } from "./store";
import type { AlertKey } from "./alerts";
import type { AckRef } from "../problems/links";

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
/** A channel whose message another node is sending is looked at again after this. */
const RECHECK_MS = 5_000;
/** While running, the outbox looks for work at least this often (messages other nodes left, claims that expired). */
const SWEEP_MS = 60_000;
/** Messages claimed in one statement. */
const CLAIM_BATCH = 100;

export interface OutboxOptions {
  db: Db;
  store: NotificationStore;
  ctx: SendContext;
  log?: Logger;
  now?: () => number;
  /** This node's name in its claims (default: the host name); a random suffix keeps each process's claims apart. */
  node?: string;
  /** The instance's public address, for templates' links to a target's page. */
  publicUrl?: string;
  /**
   * The address of a signed link acknowledging an open problem through a channel (`${publicUrl}/ack/<token>`); absent
   * when the instance does not know its public address: alerts then carry no link.
   */
  ackUrl?: (ref: AckRef) => Promise<string>;
  /** How long a claim holds (default: the send timeout + 50 s, at least a minute). */
  claimMs?: number;
  /** The clock of claims: the database's on PostgreSQL, so the nodes' clocks need not agree. */
  claimClock?: () => Promise<number>;
}

/** A message this node has claimed and is about to send. */
interface Claimed {
  id: number;
  channelId: number;
  message: NotificationMessage;
  attempts: number;
}

/** The shortest wait between two messages of a channel: its provider's rate limit, and never under a second. */
const minGapOf = (type: ChannelType) => Math.max(1_000, Math.ceil(60_000 / providerFor(type).perMinute));

export function createOutbox({ db, store, ctx, log = silentLogger, now = Date.now, ...options }: OutboxOptions) {
  const { orm } = db;
  const { notificationChannels: channels, notificationEvents: events, notificationMessages: messages, userQuietHours } = db.t;
  const claimer = `${options.node ?? hostname()}/${randomUUID().slice(0, 8)}`;
  const claimMs = options.claimMs ?? Math.max(60_000, ctx.timeoutMs + 50_000);
  const claimClock = options.claimClock ?? databaseClock(db);
  const skipLocked = db.engine === "postgres" ? sql` FOR UPDATE SKIP LOCKED` : sql``;
  const busy = new Set<number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  let ticking: Promise<void> | null = null;
  let again = false;

  const waiting = (channelId: number) => and(eq(events.channelId, channelId), isNull(events.messageId));

  /** The event as one channel gets it: with its own acknowledgement link (the link names the channel it came through). */
  async function forChannel(event: NotificationEvent, channelId: number, ack: (AlertKey & { since: number }) | undefined): Promise<NotificationEvent> {
    if (!ack || !options.ackUrl) return event;
    return { ...event, facts: { ...event.facts, ackUrl: await options.ackUrl({ ...ack, channelId }) } };
  }

  /**
   * Claims due messages — each channel's oldest pending message whose time has come and that no live claim holds —
   * for this node, in one short statement. `channelId`: only that channel's.
   */
  async function claimDue(t: number, channelId?: number): Promise<Claimed[]> {
    const at = await claimClock();
    const skip = [...busy].filter((id) => id !== channelId);
    const due = sql`(SELECT m.id FROM notification_messages m
      WHERE m.status = 'pending' AND (m.next_attempt_at IS NULL OR m.next_attempt_at <= ${t})
        AND (m.claimed_until IS NULL OR m.claimed_until <= ${at})
        ${channelId === undefined ? sql`` : sql`AND m.channel_id = ${channelId}`}
        ${skip.length ? sql`AND m.channel_id NOT IN (${sql.join(skip.map((id) => sql`${id}`), sql`, `)})` : sql``}
        AND NOT EXISTS (SELECT 1 FROM notification_messages o WHERE o.channel_id = m.channel_id AND o.status = 'pending' AND o.id < m.id)
      ORDER BY m.id LIMIT ${CLAIM_BATCH}${skipLocked})`;
    return db.tx((tx) =>
      tx.update(messages)
        .set({ claimedBy: claimer, claimedUntil: at + claimMs })
        .where(inArray(messages.id, due))
        .returning({ id: messages.id, channelId: messages.channelId, message: messages.message, attempts: messages.attempts }),
    );
  }

  /** The channel's templates applied; a template failing for this message leaves the built-in text and is logged. */
  function templated(message: NotificationMessage, type: ChannelType | undefined, templates: ChannelTemplates | null | undefined, timeZone: string, channelId: number): NotificationMessage {
    if (!type || !templates) return message;
    return applyTemplates(message, templates, type, timeZone, options.publicUrl, (problem) => log.warn("message template failed; the built-in text was sent", { channelId, problem: problem.message }));
  }

  /**
   * Takes the channel's oldest waiting events into one new message, claimed by this node, when the channel has no
   * pending message and its pace allows; otherwise says when to look again (`due`), or null: nothing waits.
   */
  async function compose(channelId: number, t: number): Promise<Claimed | { due: number | null } | null> {
    const { language, timeZone } = await store.getSettings();
    const at = await claimClock();
    return db.tx(async (tx) => {
      const channel = await first(
        tx.select({ type: channels.type, templates: channels.templates, pacedAt: channels.pacedAt, paceGap: channels.paceGap, quietHours: channels.quietHours, owner: channels.ownerUserId })
          .from(channels).where(eq(channels.id, channelId)),
      );
      if (!channel) return null;
      const pending = await first(tx.select({ id: messages.id }).from(messages).where(and(eq(messages.channelId, channelId), eq(messages.status, "pending"))).limit(1));
      if (pending) return { due: t }; // composed meanwhile (by another node): sent first
      // Quiet now? The channel's own quiet hours, and its owner's over their contact channels.
      const owners = channel.owner === null ? null : await first(tx.select({ q: userQuietHours.quietHours }).from(userQuietHours).where(eq(userQuietHours.userId, channel.owner)));
      const rules = [channel.quietHours, owners?.q];
      const lowUntil = heldUntil(rules, "low", t);
      const highUntil = lowUntil === null ? null : heldUntil(rules, "high", t);
      if (highUntil !== null) return (await first(tx.select({ id: events.id }).from(events).where(waiting(channelId)).limit(1))) ? { due: highUntil } : null;
      const rows = await tx
        .select({ id: events.id, event: events.event, createdAt: events.createdAt })
        .from(events)
        .where(lowUntil === null ? waiting(channelId) : and(waiting(channelId), eq(events.importance, "high")))
        .orderBy(asc(events.id))
        .limit(MAX_EVENTS_PER_MESSAGE);
      if (!rows.length) {
        // Only low events wait: they go when the quiet hours end.
        if (lowUntil !== null && (await first(tx.select({ id: events.id }).from(events).where(waiting(channelId)).limit(1)))) return { due: lowUntil };
        return null;
      }
      // A full message's worth waiting goes at the provider's pace; fewer wait for the storm pacing and the gathering.
      const minGap = minGapOf(channel.type);
      const due = rows.length >= MAX_EVENTS_PER_MESSAGE
        ? Math.max(channel.pacedAt + minGap, rows[0]!.createdAt)
        : Math.max(channel.pacedAt + channel.paceGap, rows[0]!.createdAt + GATHER_MS);
      if (due > t) return { due };
      // As many as fit: one line per event in a group message.
      let take = rows.length;
      let message = renderMessage(rows.map((w) => w.event), language, timeZone);
      while (take > 1 && message.lines.join("\n").length + message.title.length > MAX_MESSAGE_CHARS) {
        take = Math.max(1, Math.floor(take * 0.8));
        message = renderMessage(rows.slice(0, take).map((w) => w.event), language, timeZone);
      }
      message = templated(message, channel.type, channel.templates, timeZone, channelId);
      const gap = t - channel.pacedAt > CALM_MS ? minGap : Math.min(MAX_GAP_MS, Math.max(minGap, channel.paceGap * 2));
      await tx.update(channels).set({ pacedAt: t, paceGap: gap }).where(eq(channels.id, channelId));
      const [row] = await tx
        .insert(messages)
        .values({ channelId, message, createdAt: now(), nextAttemptAt: t, claimedBy: claimer, claimedUntil: at + claimMs })
        .returning({ id: messages.id });
      await tx.update(events).set({ messageId: row!.id }).where(inArray(events.id, rows.slice(0, take).map((w) => w.id)));
      return { id: row!.id, channelId, message, attempts: 0 };
    }, { lock: `notifications.channel:${channelId}` });
  }

  /** Sends a claimed message (no transaction is open meanwhile), then writes the outcome and lets the claim go. */
  async function attempt({ id, channelId, message, attempts }: Claimed): Promise<SendResult> {
    const channel = await store.channelForSending(channelId);
    let result: SendResult;
    if (!channel) result = { ok: false, error: "channel deleted", retryable: false };
    else if (!channel.enabled) {
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
    const released = { claimedBy: null, claimedUntil: null };
    const ours = and(eq(messages.id, id), eq(messages.status, "pending"), eq(messages.claimedBy, claimer));
    const write = async (set: Partial<typeof messages.$inferInsert>, where = ours) => (await orm.update(messages).set({ ...set, ...released }).where(where).returning({ id: messages.id })).length > 0;
    if (result.ok) {
      // Delivered is a fact even if the claim ran out during a slow request: it ends the message for every node.
      if (await write({ status: "sent", attempts: tries, sentAt: at, nextAttemptAt: null, error: null }, and(eq(messages.id, id), eq(messages.status, "pending")))) {
        await store.recordOutcome(channelId, { ok: true });
      }
    } else if (result.retryable && tries < MAX_ATTEMPTS) {
      // Retry-After is honoured, up to half an hour (a provider asking for a day would stall the channel).
      const wait = Math.max(RETRY_DELAYS_MS[tries - 1]!, Math.min(result.retryAfterMs ?? 0, 30 * 60_000));
      if (await write({ attempts: tries, nextAttemptAt: at + wait, error: result.error })) {
        log.warn("notification send failed, will retry", { channelId, messageId: id, attempt: tries, error: result.error, retryInMs: wait });
      } else log.warn("notification claim lost during the send", { channelId, messageId: id });
    } else if (await write({ status: "failed", attempts: tries, nextAttemptAt: null, error: result.error })) {
      await store.recordOutcome(channelId, { ok: false, error: result.error });
      log.warn("notification failed", { channelId, messageId: id, attempts: tries, error: result.error });
    }
    return result;
  }

  /**
   * One channel's next step: send its due message (`claimed`: claimed already, null: none was), or compose and send
   * what waits when its pace allows. Returns when to look again (null: nothing waits).
   */
  async function serveChannel(channelId: number, t: number, claimed?: Claimed | null): Promise<number | null> {
    const mine = claimed === undefined ? (await claimDue(t, channelId))[0] : claimed;
    if (mine) {
      await attempt(mine);
      return t; // look again: more may be due
    }
    const pending = await first(
      orm.select({ nextAttemptAt: messages.nextAttemptAt }).from(messages)
        .where(and(eq(messages.channelId, channelId), eq(messages.status, "pending")))
        .orderBy(asc(messages.id))
        .limit(1),
    );
    // Not due yet, or another node is sending it.
    if (pending) return (pending.nextAttemptAt ?? 0) > t ? pending.nextAttemptAt : t + RECHECK_MS;
    const composed = await compose(channelId, t);
    if (composed === null || !("id" in composed)) return composed?.due ?? null;
    await attempt(composed);
    return t;
  }

  /** Serves every channel with work; returns when the next thing falls due (or null: nothing waits). */
  async function tick(): Promise<number | null> {
    const t = now();
    const withWork = await db.rows<{ id: number }>(sql`
      SELECT c.id FROM notification_channels c
      WHERE EXISTS (SELECT 1 FROM notification_events e WHERE e.channel_id = c.id AND e.message_id IS NULL)
         OR EXISTS (SELECT 1 FROM notification_messages m WHERE m.channel_id = c.id AND m.status = 'pending')
      ORDER BY c.id`);
    const claimed = new Map((await claimDue(t)).map((c) => [c.channelId, c] as const));
    const ids = new Set([...withWork.map((r) => r.id), ...claimed.keys()]);
    let next: number | null = null;
    await Promise.all(
      [...ids].filter((id) => !busy.has(id)).map(async (id) => {
        busy.add(id);
        try {
          let due = await serveChannel(id, now(), claimed.get(id) ?? null);
          // Keep serving while something is due now (a backlog, retries that fell due together).
          while (due !== null && due <= now() && running) due = await serveChannel(id, now());
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
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(wake, Math.max(0, Math.min(at ?? Infinity, now() + SWEEP_MS) - now()));
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
    /** This outbox's name in its claims. */
    node: claimer,

    /**
     * Queues an event for channels (durably, before resolving). `key` identifies the event: the same key for the
     * same channel is ignored, so an event re-emitted after a restart is not sent twice. Resolves to how many
     * channels took it. `ack`: the open problem the event is about, for each channel's acknowledgement link.
     */
    async enqueue(channelIds: number[], event: NotificationEvent, key: string, ack?: AlertKey & { since: number }): Promise<number> {
      if (!channelIds.length) return 0;
      const at = now();
      const importance = importanceOf(event);
      const rows = await Promise.all(channelIds.map(async (channelId) => ({ channelId, eventKey: key, event: await forChannel(event, channelId, ack), importance, createdAt: at })));
      const inserted = (
        await orm
          .insert(events)
          .values(rows)
          .onConflictDoNothing()
          .returning({ id: events.id })
      ).length;
      if (inserted) wake();
      return inserted;
    },

    /** Sends a test message to a channel now (not queued: the answer is the provider's verdict) and logs it. */
    async sendTest(channelId: number, event: NotificationEvent): Promise<SendResult> {
      const { language, timeZone } = await store.getSettings();
      const channel = await store.channelForSending(channelId);
      const message = templated(renderMessage([event], language, timeZone), channel?.type, channel?.templates, timeZone, channelId);
      const createdAt = now();
      // One try, final either way: a test that failed is reported, not retried behind the user's back.
      let result: SendResult;
      try {
        result = channel ? await providerFor(channel.type).send(channel.config as never, message, ctx) : { ok: false, error: "channel deleted", retryable: false };
      } catch (e) {
        result = { ok: false, error: String((e as Error)?.message ?? e), retryable: false };
      }
      // Logged with its verdict (never pending, so no outbox picks it up), unless the channel went meanwhile.
      const outcome = result.ok ? { status: "sent" as const, sentAt: now(), error: null } : { status: "failed" as const, sentAt: null, error: result.error };
      const logged = await db.tx(async (tx) => {
        if (!(await first(tx.select({ id: channels.id }).from(channels).where(eq(channels.id, channelId))))) return false;
        const [row] = await tx.insert(messages).values({ channelId, message, createdAt, nextAttemptAt: null, attempts: 1, ...outcome }).returning({ id: messages.id });
        await tx.insert(events).values({ channelId, eventKey: `test:${row!.id}`, event, createdAt, messageId: row!.id });
        return true;
      });
      if (logged) await store.recordOutcome(channelId, result.ok ? { ok: true } : { ok: false, error: result.error });
      return result;
    },

    get running() {
      return running;
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
    async backlog(): Promise<{ messages: number; events: number }> {
      const [pending] = await orm.select({ n: count() }).from(messages).where(eq(messages.status, "pending"));
      // Per channel, so each count is an index seek: `message_id IS NULL` alone scans every event ever sent.
      const [waitingEvents] = await db.rows<{ n: number }>(
        sql`SELECT coalesce(sum((SELECT count(*) FROM notification_events e WHERE e.channel_id = c.id AND e.message_id IS NULL)), 0) AS n
            FROM notification_channels c`,
      );
      return { messages: Number(pending?.n ?? 0), events: Number(waitingEvents?.n ?? 0) };
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
