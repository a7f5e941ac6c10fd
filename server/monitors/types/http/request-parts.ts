// What an http check builds before its request, built once and shared instead of per check: a check costs about what
// the runtime's fetch costs (README, "Per-check CPU against the runtime's floor"), so the rest must be near nothing.
import { isIP } from "node:net";
import { hostProblem, literalProblem, type Resolve, type TargetPolicy } from "../../../net/targets";

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

/** URLs whose host is remembered (a bound: a monitor's URL is one entry; redirect hops add theirs). */
const MAX_URLS = 50_000;

/**
 * The address policy per URL. A host written as an IP address (or a forbidden name) has a fixed verdict, known
 * without parsing the URL again; a name is resolved each time (through the resolver's own cache), since where it
 * points may change.
 */
export function createHostGuard(policy: TargetPolicy, resolve: Resolve) {
  /** URL → its host (a name) or its fixed verdict (null: allowed). */
  const seen = new Map<string, { host: string } | { verdict: string | null }>();
  const learn = (url: string) => {
    let host: string;
    try {
      host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    } catch {
      return { verdict: null }; // not a URL: fetch says so
    }
    const literal = literalProblem(host, policy);
    const entry = literal || isIP(host) ? { verdict: literal } : { host };
    if (seen.size >= MAX_URLS) seen.clear();
    seen.set(url, entry);
    return entry;
  };
  return {
    /** The verdict when it needs no lookup (undefined: call check). */
    known(url: string): string | null | undefined {
      const entry = seen.get(url) ?? learn(url);
      return "verdict" in entry ? entry.verdict : undefined;
    },
    /** The verdict after resolving the URL's host. */
    async check(url: string): Promise<string | null> {
      const entry = seen.get(url) ?? learn(url);
      return "verdict" in entry ? entry.verdict : hostProblem(entry.host, policy, resolve);
    },
  };
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
  const shared = new Map<string, { signal: AbortSignal; until: number }>();
  const outerIds = new WeakMap<AbortSignal, number>();
  let outers = 0;
  return {
    of(timeoutMs: number, outer?: AbortSignal): AbortSignal {
      let outerId = 0;
      if (outer) {
        outerId = outerIds.get(outer) ?? ++outers;
        outerIds.set(outer, outerId);
      }
      const key = `${timeoutMs}:${outerId}`;
      const t = now();
      const hit = shared.get(key);
      if (hit && t < hit.until && !hit.signal.aborted) return hit.signal;
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
      shared.set(key, { signal: controller.signal, until: t + SHARE_MS });
      return controller.signal;
    },
  };
}
