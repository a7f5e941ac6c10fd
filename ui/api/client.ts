import { navigate } from "wouter/use-browser-location";
import { clearSession, token } from "../state/session";
import type { ExportFormat } from "../../server/exports/stream";

/** The formats of the raw-data exports (monitor checks, agent samples). */
export type { ExportFormat };

/** Client time-out for every call (spec §9). */
export const TIMEOUT_MS = 60_000;

/** Every successful reply carries `success: true` plus its data. */
export type Ok<T> = { success: true; message?: string } & T;

/** A failed call: the HTTP status (0 when no reply came), the server's code and message when it sent them. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    /** The server's message, or "" when there is none (network error, time-out, non-JSON reply). */
    readonly serverMessage: string,
    /** The whole error body, for extra fields such as `retryAfter`. */
    readonly body: Record<string, unknown> = {},
  ) {
    super(serverMessage || `HTTP ${status}`);
    this.name = "ApiError";
  }
}

/**
 * What a 401 does: forget the session and go to /login (staying there, form intact, when already on it). Also used by
 * the live socket when the server closes it because the session ended (code 4001).
 */
export function onUnauthorized() {
  clearSession();
  if (typeof window !== "undefined" && window.location.pathname !== "/login") navigate("/login", { replace: true });
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/** One call to the same-origin API: JSON (or a form) in, JSON out, bearer token when stored, 60 s time-out, envelope checked. */
export async function request<T>(method: Method, path: string, body?: unknown): Promise<Ok<T>> {
  // A form (a file upload) goes as multipart: the browser writes its Content-Type with the boundary.
  const form = body instanceof FormData;
  const headers: Record<string, string> = form ? { Accept: "application/json" } : { "Content-Type": "application/json", Accept: "application/json" };
  if (token.value) headers.Authorization = `Bearer ${token.value}`;

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new ApiError(0, undefined, "", { cause: String(error) });
  }

  let data: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = await response.json();
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
  } catch {
    data = null;
  }

  if (!response.ok || !data || data.success !== true) throw failure(response.status, data);
  return data as Ok<T>;
}

/** The error of a failed reply (its JSON body, when it had one); a 401 also signs out. */
function failure(status: number, data: Record<string, unknown> | null): ApiError {
  if (status === 401) onUnauthorized();
  const code = typeof data?.code === "string" ? data.code : undefined;
  // The instance requires two-factor sign-in and this account has none yet: its set-up is on /profile.
  if (code === "TWO_FACTOR_SETUP_REQUIRED" && typeof window !== "undefined" && window.location.pathname !== "/profile") navigate("/profile", { replace: true });
  const message = typeof data?.message === "string" ? data.message : "";
  return new ApiError(status, code, message, data ?? {});
}

/**
 * A file from the API (a backup): its bytes and the name the server gave it (Content-Disposition). No time-out: a
 * large database takes as long as it takes.
 */
export async function fetchFile(path: string, fallbackName: string): Promise<{ blob: Blob; fileName: string }> {
  let response: Response;
  try {
    response = await fetch(path, { headers: token.value ? { Authorization: `Bearer ${token.value}` } : {} });
  } catch (error) {
    throw new ApiError(0, undefined, "", { cause: String(error) });
  }
  if (!response.ok) throw failure(response.status, await response.json().catch(() => null));
  const fileName = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
  return { blob: await response.blob(), fileName };
}

export const api = {
  get: <T>(path: string) => request<T>("GET", path),
  post: <T>(path: string, body?: unknown) => request<T>("POST", path, body ?? {}),
  put: <T>(path: string, body?: unknown) => request<T>("PUT", path, body ?? {}),
  delete: <T>(path: string) => request<T>("DELETE", path),
};
