import { useEffect } from "react";
import { getRecentChecksOf } from "../../../api/monitors";
import type { ListStore } from "./store";

/** Scrolling settles this long before the rows in view ask for their checks (a fling does not fetch every window). */
const SETTLE_MS = 120;

/**
 * Fetches the latest checks of the rows in view (`ids`) that do not have them yet (a new monitor, a row scrolled into
 * view, every row after a reconnect); live checks keep them current from then on (the store appends them).
 */
export function useVisibleChecks(store: ListStore, ids: readonly number[]) {
  useEffect(() => {
    const timer = setTimeout(() => {
      const wanted = store.claimChecks(ids);
      if (wanted.length === 0) return;
      getRecentChecksOf(wanted)
        .then((reply) => store.setChecks(wanted, reply.checks))
        .catch(() => store.releaseChecks(wanted)); // the strip stays grey; the heartbeat below has the hours
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [store, ids]);
}
