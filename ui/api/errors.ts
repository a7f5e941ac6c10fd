import i18n from "i18next";
import { ApiError } from "./client";

/**
 * The text to show for a failed call: the translation of the server's `code` when one exists (`errors.<CODE>`),
 * else the server's own message, else the page's translated fallback (network error, time-out, empty reply). A
 * translation may quote the server's message as `{{message}}`.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.code) {
    const key = `errors.${error.code}`;
    if (i18n.exists(key)) {
      const retryAfter = Number(error.body.retryAfter);
      const minutes = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter / 60) : 1;
      // `message`: the server's own sentence, for translations that quote it (errors.VALIDATION).
      // `cycle`: the monitors of a refused dependency cycle ("A → B → A"), for errors.DEPENDENCY_CYCLE.
      const cycle = typeof error.body.cycle === "string" ? error.body.cycle : "";
      return i18n.t(key as never, { minutes, message: error.serverMessage, cycle }) as string;
    }
  }
  return error.serverMessage || fallback;
}
