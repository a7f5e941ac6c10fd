// Long-lived connections (the /api/live WebSocket today, any later push channel) outlive the request that checked
// their session. Each one is watched here, the single place that ends them: at the token's expiry (a timer), at once
// when its user changes on this node (disabled, deleted, password changed, signed out everywhere: the user store
// emits `user.change`, and the user's connections are re-checked against the same rules as every request; in a
// cluster the bridge passes a change on to every node), and at the latest at the next periodic re-check of every
// watched user (`recheckMs`), for a change this node never heard of (said while its listening connection was down).
import type { EventBus } from "../events";
import type { UserStore } from "../users/store";
import type { UserRow } from "../db/schema";
import { sessionValid, type SessionClaims } from "./session";

/** setTimeout's longest delay (about 24.8 days); a longer expiry re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Watched {
  claims: SessionClaims;
  /** The role the connection was opened with: what it receives depends on it (a viewer's is filtered). */
  role?: UserRow["role"];
  end: () => void;
  timer?: ReturnType<typeof setTimeout>;
  /** Ended or forgotten: a check still running must not end it (again). */
  done?: boolean;
}

export interface SessionWatchOptions {
  bus: EventBus;
  users: Pick<UserStore, "byId">;
  now?: () => number;
  /**
   * How often every watched user is read again (ms; 0: never), so a session ended on another node ends here within
   * this delay even if its `user.change` was lost on the way. One lookup per watched user, only while any is watched.
   */
  recheckMs?: number;
}

export function createSessionWatch({ bus, users, now = Date.now, recheckMs = 30_000 }: SessionWatchOptions) {
  const byUser = new Map<number, Set<Watched>>();
  let sweepTimer: ReturnType<typeof setInterval> | undefined;
  let sweeping = false;

  function forget(entry: Watched) {
    entry.done = true;
    clearTimeout(entry.timer);
    const set = byUser.get(entry.claims.userId);
    set?.delete(entry);
    if (set?.size === 0) byUser.delete(entry.claims.userId);
    if (byUser.size === 0 && sweepTimer) {
      clearInterval(sweepTimer);
      sweepTimer = undefined;
    }
  }

  function end(entry: Watched) {
    if (entry.done) return;
    forget(entry);
    entry.end();
  }

  /**
   * Re-checks the sessions of a user's connections against one fresh read of the user; ends those no longer valid.
   * A failed lookup (the database briefly unreachable) leaves them open: the next change, sweep or expiry checks
   * again. `only` narrows it to one connection.
   */
  async function recheck(userId: number, only?: Watched): Promise<void> {
    let row: UserRow | undefined;
    try {
      row = await users.byId(userId);
    } catch {
      return;
    }
    judge(userId, row, only);
  }

  /** Ends the connections (of a user, or just `only`) whose session `user` (as it now is; undefined: gone) ends. */
  function judge(userId: number, user: Pick<UserRow, "status" | "sessionVersion" | "role"> | undefined, only?: Watched) {
    const at = now();
    for (const entry of only ? [only] : [...(byUser.get(userId) ?? [])]) {
      // A new role ends it too: the client reconnects and gets what the new role may see.
      if (!sessionValid(user, entry.claims, at) || (entry.role !== undefined && user?.role !== entry.role)) end(entry);
    }
  }

  function armExpiry(entry: Watched) {
    if (entry.claims.exp === undefined) return;
    const delay = entry.claims.exp * 1000 - now();
    entry.timer = setTimeout(() => {
      // Expiry needs no lookup: the token says when.
      if (entry.claims.exp! * 1000 <= now()) end(entry);
      else armExpiry(entry); // woke early: the delay was capped
    }, Math.min(Math.max(delay, 0), MAX_TIMER_MS));
    (entry.timer as { unref?: () => void }).unref?.();
  }

  async function sweep() {
    if (sweeping) return;
    sweeping = true;
    try {
      for (const userId of [...byUser.keys()]) await recheck(userId);
    } finally {
      sweeping = false;
    }
  }

  // A change made here comes with the user as committed: judged at once, before the request that made it answers,
  // so nothing more is sent to a session that ended. One from another node is read from the database (the
  // authoritative state, whatever order messages arrive in).
  const unsubscribe = bus.on("user.change", (e) => {
    if (e.remote) void recheck(e.userId);
    else if (e.kind === "deleted") judge(e.userId, undefined);
    else if (e.user) judge(e.userId, e.user);
    else void recheck(e.userId);
  });

  return {
    /**
     * Watches a connection opened under `claims`; `end` is called once, when the session stops being valid (maybe
     * soon after this returns: the session is read again, as it may have ended since the caller checked it).
     * Returns the function to call when the connection closes by itself.
     */
    watch(claims: SessionClaims, end: () => void, role?: UserRow["role"]): () => void {
      const entry: Watched = { claims, end, role };
      let set = byUser.get(claims.userId);
      if (!set) byUser.set(claims.userId, (set = new Set()));
      set.add(entry);
      armExpiry(entry);
      if (recheckMs > 0 && !sweepTimer) {
        sweepTimer = setInterval(() => void sweep(), recheckMs);
        (sweepTimer as { unref?: () => void }).unref?.();
      }
      void recheck(claims.userId, entry);
      return () => forget(entry);
    },

    /** How many connections are watched (for tests and stats). */
    get size() {
      let n = 0;
      for (const set of byUser.values()) n += set.size;
      return n;
    },

    /** Stops watching everything (shutdown); nothing is ended. */
    stop() {
      unsubscribe();
      clearInterval(sweepTimer);
      sweepTimer = undefined;
      for (const set of byUser.values()) {
        for (const entry of set) {
          entry.done = true;
          clearTimeout(entry.timer);
        }
      }
      byUser.clear();
    },
  };
}

export type SessionWatch = ReturnType<typeof createSessionWatch>;
