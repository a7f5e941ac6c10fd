import { useEffect } from "react";
import { getRecentChecksOf, type PublicMonitor } from "../../../api/monitors";
import type { ListStore } from "./store";

/** Scrolling settles this long before the rows in view ask for their checks (a fling does not fetch every window). */
const SETTLE_MS = 120;

/**
 * Fetches the latest checks of the rows in view that do not have them yet (a new monitor, a row scrolled into view,
 * every row after a reconnect); live checks keep them current from then on (the store appends them).
 */
export function useVisibleChecks(store: ListStore, shown: readonly PublicMonitor[], start: number, end: number) {
  useEffect(() => {
    const timer = setTimeout(() => {
      const ids = store.claimChecks(shown.slice(start, end).map((m) => m.id));
      if (ids.length === 0) return;
      getRecentChecksOf(ids)
        .then((reply) => store.setChecks(ids, reply.checks))
        .catch(() => store.releaseChecks(ids)); // the strip stays grey; the heartbeat below has the hours
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [store, shown, start, end]);
}
