// What an http check builds before its request, built once and shared instead of per check: a check costs about what
// the runtime's fetch costs (docs/benchmarks.md, "Per-check cost against the runtime's floor"), so the rest must be near nothing.

type Header = { name: string; value: string };

/** Built request headers per monitor headers list (the list is replaced, never edited, when a monitor changes). */
const builtHeaders = new WeakMap<readonly Header[], [string, string][]>();

/** The request's headers: the user agent unless the monitor sets its own, then the monitor's, in order. */
export function requestHeaders(headers: readonly Header[], userAgent: string): [string, string][] {
  let built = builtHeaders.get(headers);
  if (!built) {
    built = headers.some((h) => h.name.toLowerCase() === "user-agent") ? [] : [["user-agent", userAgent]];
    for (const h of headers) built.push([h.name, h.value]);
    builtHeaders.set(headers, built);
  }
  return built;
}

/** How long a started timeout is shared with the checks that start after it. */
const SHARE_MS = 100;

/**
 * Timeout signals shared by the checks that start within SHARE_MS of each other with the same timeout (a scheduler
 * tick starts them together): one timer and one signal per tick instead of two signals per check, each kept alive
 * for the whole timeout. A shared signal fires SHARE_MS late at most, so no check is cut short: its timeout is
 * between what the monitor says and that plus 0.1 s. `outer` (the scheduler's stop) aborts them all as well, with its
 * reason; a timeout aborts with a TimeoutError, as AbortSignal.timeout would.
 */
export function createCheckSignals(now: () => number = () => performance.now()) {
  /** The latest signal per timeout, with the outer signal it follows and until when it is handed out. */
  const shared = new Map<number, { signal: AbortSignal; outer: AbortSignal | undefined; until: number }>();
  return {
    of(timeoutMs: number, outer?: AbortSignal): AbortSignal {
      const t = now();
      const hit = shared.get(timeoutMs);
      if (hit && hit.outer === outer && t < hit.until && !hit.signal.aborted) return hit.signal;
      // One controller, one timer (not AbortSignal.timeout + AbortSignal.any: the profile showed `any` at 5 % of a
      // check's JavaScript). The listener on the long-lived outer signal goes when the timer fires.
      const controller = new AbortController();
      const onOuter = () => {
        clearTimeout(timer);
        controller.abort(outer!.reason);
      };
      const timer = setTimeout(() => {
        outer?.removeEventListener("abort", onOuter);
        controller.abort(new DOMException("The operation timed out.", "TimeoutError"));
      }, timeoutMs + SHARE_MS);
      timer.unref(); // a pending timeout does not keep a stopping process alive
      if (outer?.aborted) onOuter();
      else outer?.addEventListener("abort", onOuter, { once: true });
      if (shared.size > 256) shared.clear();
      shared.set(timeoutMs, { signal: controller.signal, outer, until: t + SHARE_MS });
      return controller.signal;
    },
  };
}
