import type { PublicStatusPage, StatusPageConfig, StatusPageConfigInput } from "../../server/status/public";
import { api } from "./client";

// The wire types and limits are the server's: the UI imports them from here, never writes them again.
export type * from "../../server/status/public";
export { ANNOUNCEMENT_MAX, ANNOUNCEMENT_SEVERITIES, STATUS_DESCRIPTION_MAX, STATUS_ITEMS_MAX, STATUS_TITLE_MAX } from "../../server/status/public";

/** How often the public page asks again (the server caches the view 5 s and answers 304 when it is unchanged). */
export const STATUS_POLL_MS = 30_000;

/**
 * The public page (no sign-in). A plain GET: the browser revalidates with If-None-Match and turns the server's 304
 * into the cached reply.
 */
export const getPublicStatus = () => api.get<{ page: PublicStatusPage }>("/api/status");

export const getStatusConfig = () => api.get<{ config: StatusPageConfig }>("/api/status/config");

/** Replaces the whole configuration; `announcement: null` clears it. Unknown ids → 400 MONITOR_UNKNOWN / AGENT_UNKNOWN. */
export const saveStatusConfig = (input: StatusPageConfigInput) => api.put<{ config: StatusPageConfig }>("/api/status/config", input);
