import { me } from "../api/auth";
import { TOKEN_KEY, USER_KEY, clearSession, loadStoredSession, sessionReady, setUser, token } from "./session";

/**
 * Start-up (spec §4): load the stored token and user; with a token but no user, fetch the current user, and clear
 * the session if that fails or the reply lacks `success` and `user`; with both, refresh the user in the background.
 */
export async function restoreSession(): Promise<void> {
  const stored = loadStoredSession();
  try {
    if (stored.token && !stored.user) {
      try {
        const reply = await me();
        if (reply.success && reply.user) setUser(reply.user);
        else clearSession();
      } catch {
        clearSession();
      }
    } else if (!stored.token) {
      clearSession(); // a user without a token is no session
    } else {
      // The stored copy may be older than the account (a role changed elsewhere, two-factor turned on, or written by
      // an older Vigil that named editors "user"): refreshed in the background, start-up does not wait. A 401 ends
      // the session as any call's would.
      void me().then((reply) => {
        if (reply.success && reply.user && token.value === stored.token) setUser(reply.user);
      }, () => {});
    }
  } finally {
    sessionReady.value = true;
  }
}

/** Logging in or out in another tab does the same here. */
export function syncSessionAcrossTabs() {
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === TOKEN_KEY || event.key === USER_KEY) loadStoredSession();
  });
}
