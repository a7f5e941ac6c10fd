// Upside down (Uptime Kuma's "upside down mode"): a monitor that is up when its target is unreachable. Applied once,
// after the type's check (types/index.ts `run`, the push route, results from agent locations), never inside a type.
import { CHECK_ERROR_TEXT } from "../check-errors";
import type { CheckOutcome } from "./check-type";

/**
 * The outcome as an upside-down monitor records it: a pass is down ("up, but this monitor is upside down"), a
 * failure is up. Response time, HTTP status and ping figures are kept: they describe what the check saw.
 */
export function flipOutcome<T extends Pick<CheckOutcome, "up" | "error">>(outcome: T): T {
  return { ...outcome, up: !outcome.up, error: outcome.up ? CHECK_ERROR_TEXT.UPSIDE_DOWN : null };
}
