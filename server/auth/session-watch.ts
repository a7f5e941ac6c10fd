// Long-lived connections (the /api/live WebSocket today, any later push channel) outlive the request that checked
// their session. Each one is watched here, the single place that ends them: at the token's expiry (a timer), and at
// once when its user changes (disabled, deleted, password changed, signed out everywhere: the user store emits
// `user.change`, and the user's connections are re-checked against the same rules as every request).
import type { EventBus } from "../events";
import type { UserStore } from "../users/store";
import { sessionUser, type SessionClaims } from "./session";

/** setTimeout's longest delay (about 24.8 days); a longer expiry re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Watched {
  claims: SessionClaims;
  end: () => void;
  timer?: ReturnType<typeof setTimeout>;
}

export interface SessionWatchOptions {
  bus: EventBus;
  users: UserStore;
  now?: () => number;
}

export function createSessionWatch({ bus, users, now = Date.now }: SessionWatchOptions) {
  const byUser = new Map<number, Set<Watched>>();

  function forget(entry: Watched) {
    clearTimeout(entry.timer);
    const set = byUser.get(entry.claims.userId);
    set?.delete(entry);
    if (set?.size === 0) byUser.delete(entry.claims.userId);
  }

  function endIfInvalid(entry: Watched) {
    if (sessionUser(users, entry.claims, now())) return false;
    forget(entry);
    entry.end();
    return true;
  }

  function armExpiry(entry: Watched) {
    if (entry.claims.exp === undefined) return;
    const delay = entry.claims.exp * 1000 - now();
    entry.timer = setTimeout(() => {
      if (!endIfInvalid(entry)) armExpiry(entry); // woke early: the delay was capped
    }, Math.min(Math.max(delay, 0), MAX_TIMER_MS));
    (entry.timer as { unref?: () => void }).unref?.();
  }

  const unsubscribe = bus.on("user.change", ({ userId }) => {
    for (const entry of [...(byUser.get(userId) ?? [])]) endIfInvalid(entry);
  });

  return {
    /**
     * Watches a connection opened under `claims`; `end` is called once, when the session stops being valid.
     * Returns the function to call when the connection closes by itself.
     */
    watch(claims: SessionClaims, end: () => void): () => void {
      const entry: Watched = { claims, end };
      if (endIfInvalid(entry)) return () => {};
      let set = byUser.get(claims.userId);
      if (!set) byUser.set(claims.userId, (set = new Set()));
      set.add(entry);
      armExpiry(entry);
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
      for (const set of byUser.values()) for (const entry of set) clearTimeout(entry.timer);
      byUser.clear();
    },
  };
}

export type SessionWatch = ReturnType<typeof createSessionWatch>;
