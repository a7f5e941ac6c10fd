// The monitor page loads its header, its history and its strip of recent checks apart, and hears of later checks
// live. A new monitor's first check can end after the history and strip were read but before the page listens
// (it listens once the monitor is loaded): the header then shows the check while the rest says "0 checks". Each
// view compares itself with the header and fetches again when it lacks the header's check.
import { useEffect, useRef } from "react";

/**
 * Whether a view should be fetched again: the header shows a check (`headerCheck`, its time) newer than the view's
 * latest, and the view was not fetched for that check already (`tried`) — a view that cannot hold it (a check not
 * yet written on another node) waits for the next check or refresh instead of being fetched over and over.
 */
export function missesHeaderCheck(headerCheck: number | null, viewLatest: number | null, tried: number | null): boolean {
  return headerCheck !== null && headerCheck !== tried && (viewLatest === null || viewLatest < headerCheck);
}

/** Calls `reload` once per header check the loaded view lacks (`viewLatest` undefined: the view is not loaded yet). */
export function useCatchUp(headerCheck: number | null, viewLatest: number | null | undefined, reload: () => void) {
  const tried = useRef<number | null>(null);
  useEffect(() => {
    if (viewLatest === undefined || !missesHeaderCheck(headerCheck, viewLatest, tried.current)) return;
    tried.current = headerCheck;
    reload();
  }, [headerCheck, viewLatest, reload]);
}
