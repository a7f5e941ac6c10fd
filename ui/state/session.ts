import { computed, signal } from "@preact/signals-react";
import type { PublicUser } from "../../server/users/public";

export type { PublicUser };

/** localStorage keys (spec §3, §9). */
export const TOKEN_KEY = "token";
export const USER_KEY = "user";

export const token = signal<string | null>(null);
export const user = signal<PublicUser | null>(null);
export const isAuthenticated = computed(() => token.value !== null && user.value !== null);
export const isAdmin = computed(() => user.value?.role === "admin");
/** Editors and admins change things; a viewer only looks (the server refuses its changes with 403 READ_ONLY). */
export const canEdit = computed(() => user.value !== null && user.value.role !== "viewer");
/** False while the start-up check (token without a stored user → GET /api/auth/me) is running. */
export const sessionReady = signal(false);

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled
  }
}

function isUser(value: unknown): value is PublicUser {
  const u = value as PublicUser | null;
  return typeof u === "object" && u !== null && typeof u.id === "number" && typeof u.username === "string";
}

/** Reads the stored token and user; a user that does not parse counts as missing. */
export function loadStoredSession(): { token: string | null; user: PublicUser | null } {
  const store = storage();
  const storedToken = store?.getItem(TOKEN_KEY) || null;
  let storedUser: PublicUser | null = null;
  try {
    const parsed: unknown = JSON.parse(store?.getItem(USER_KEY) ?? "null");
    storedUser = isUser(parsed) ? parsed : null;
  } catch {
    storedUser = null;
  }
  token.value = storedToken;
  user.value = storedToken ? storedUser : null;
  return { token: storedToken, user: storedUser };
}

export function setToken(next: string) {
  token.value = next;
  storage()?.setItem(TOKEN_KEY, next);
}

export function setUser(next: PublicUser) {
  user.value = next;
  storage()?.setItem(USER_KEY, JSON.stringify(next));
}

/** Login: store both. */
export function setSession(nextToken: string, nextUser: PublicUser) {
  setToken(nextToken);
  setUser(nextUser);
}

/** Logout, a 401, or a failed start-up check: forget both. */
export function clearSession() {
  token.value = null;
  user.value = null;
  const store = storage();
  store?.removeItem(TOKEN_KEY);
  store?.removeItem(USER_KEY);
}
