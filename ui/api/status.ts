import type { PublicStatusPage, StatusPageConfig, StatusPageConfigInput, StatusPageInput, StatusPageSettings } from "../../server/status/public";
import { api } from "./client";

// The wire types and limits are the server's: the UI imports them from here, never writes them again.
export type * from "../../server/status/public";
export {
  ANNOUNCEMENT_MAX,
  ANNOUNCEMENT_SEVERITIES,
  DEFAULT_STATUS_PAGE_ID,
  STATUS_DESCRIPTION_MAX,
  STATUS_GROUP_NAME_MAX,
  STATUS_ITEMS_MAX,
  STATUS_LOGO_MAX,
  STATUS_PASSWORD_MIN,
  STATUS_SLUG_MAX,
  STATUS_TITLE_MAX,
  STATUS_VISIBILITIES,
} from "../../server/status/public";

/** How often the public page asks again (the server caches the view 5 s and answers 304 when it is unchanged). */
export const STATUS_POLL_MS = 30_000;

/**
 * The public page (no sign-in). A plain GET: the browser revalidates with If-None-Match and turns the server's 304
 * into the cached reply.
 */
export const getPublicStatus = (slug?: string) => api.get<{ page: PublicStatusPage }>(slug ? `/api/status/pages/${encodeURIComponent(slug)}` : "/api/status");

/** Where a password page's unlock token is kept (per page), sent as x-status-token. */
export const unlockKey = (slug: string) => `vigil.status.${slug}`;

export type StatusFetch = { status: number; page?: PublicStatusPage; code?: string };

/**
 * A page by its slug (the default page, or the custom domain's, without one), with the session token (private pages)
 * and the page's unlock token (password pages) when there are. Not through the API client: a 401 here means "this
 * page needs a password or a sign-in", not "your session ended".
 */
export async function fetchStatusPage(slug: string | null, session: string | null): Promise<StatusFetch> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (session) headers.authorization = `Bearer ${session}`;
  const unlock = slug ? localStorage.getItem(unlockKey(slug)) : null;
  if (unlock) headers["x-status-token"] = unlock;
  // no-cache: always asked again, answered 304 (cheap) when unchanged, so a reload right after a change shows it.
  const res = await fetch(slug ? `/api/status/pages/${encodeURIComponent(slug)}` : "/api/status", { headers, cache: "no-cache" });
  const body = (await res.json().catch(() => ({}))) as { page?: PublicStatusPage; code?: string };
  return { status: res.status, page: body.page, code: body.code };
}

/** Unlocks a password page; true when the password was right (its token is kept for next time). */
export async function unlockStatusPage(slug: string, password: string): Promise<{ ok: boolean; code?: string }> {
  const res = await fetch(`/api/status/pages/${encodeURIComponent(slug)}/unlock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ password }) });
  const body = (await res.json().catch(() => ({}))) as { token?: string; code?: string };
  if (res.ok && body.token) localStorage.setItem(unlockKey(slug), body.token);
  return { ok: res.ok, code: body.code };
}

export const listStatusPages = () => api.get<{ pages: StatusPageSettings[] }>("/api/status-pages");
export const getStatusPage = (id: number) => api.get<{ page: StatusPageSettings }>(`/api/status-pages/${id}`);
export const createStatusPage = (input: StatusPageInput) => api.post<{ page: StatusPageSettings }>("/api/status-pages", input);
export const saveStatusPage = (id: number, input: StatusPageInput) => api.put<{ page: StatusPageSettings }>(`/api/status-pages/${id}`, input);
export const deleteStatusPage = (id: number) => api.delete<object>(`/api/status-pages/${id}`);
/** A new secret feed link for a page that is not public (the old one stops working), or none. */
export const createFeedKey = (id: number) => api.post<{ page: StatusPageSettings }>(`/api/status-pages/${id}/feed-key`);
export const removeFeedKey = (id: number) => api.delete<{ page: StatusPageSettings }>(`/api/status-pages/${id}/feed-key`);

export const getStatusConfig = () => api.get<{ config: StatusPageConfig }>("/api/status/config");

/** Replaces the whole configuration; `announcement: null` clears it. Unknown ids → 400 MONITOR_UNKNOWN / AGENT_UNKNOWN. */
export const saveStatusConfig = (input: StatusPageConfigInput) => api.put<{ config: StatusPageConfig }>("/api/status/config", input);
