// What this browser can do about push (the Push API through Vigil's service worker, ui/public/sw.js), kept apart from
// the card that shows it (DevicesCard.tsx).

/**
 * Why push cannot be turned on here, or "ready":
 * - insecure: the page is served over plain http from another host (the Push API needs https, or localhost);
 * - unsupported: no service worker, PushManager or Notification (an old browser; iOS outside a Home Screen app);
 * - denied: the person blocked notifications for this site (only the browser's site settings undo it).
 */
export type PushSupport = "ready" | "insecure" | "unsupported" | "denied";

export function pushSupport(): PushSupport {
  if (!window.isSecureContext) return "insecure";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return "unsupported";
  return Notification.permission === "denied" ? "denied" : "ready";
}

/** iPhone and iPad: Web Push works only in an app added to the Home Screen (iOS 16.4+). */
export const isAppleMobile = () => /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);

/** "Chrome · Android": enough to tell one's devices apart in the list. */
export function deviceLabel(userAgent = navigator.userAgent): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /OPR\//.test(userAgent)
      ? "Opera"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Chrome\/|CriOS\//.test(userAgent)
          ? "Chrome"
          : /Safari\//.test(userAgent)
            ? "Safari"
            : "Browser";
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad|iPod/.test(userAgent)
      ? "iOS"
      : /CrOS/.test(userAgent)
        ? "ChromeOS"
        : /Windows/.test(userAgent)
          ? "Windows"
          : /Mac OS X/.test(userAgent)
            ? "macOS"
            : /Linux/.test(userAgent)
              ? "Linux"
              : "";
  return system ? `${browser} · ${system}` : browser;
}

/** The key as PushManager.subscribe wants it: base64url text to bytes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** The service worker's registration: the production build registers it at start (ui/main.tsx), a dev server does not. */
async function registration(): Promise<ServiceWorkerRegistration> {
  if (!(await navigator.serviceWorker.getRegistration("/"))) await navigator.serviceWorker.register("/sw.js");
  return navigator.serviceWorker.ready;
}

/** This browser's current subscription, if it has one (without asking for anything). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushSupport() === "insecure" || !("serviceWorker" in navigator) || !("PushManager" in window)) return null;
  const reg = await navigator.serviceWorker.getRegistration("/");
  return reg ? reg.pushManager.getSubscription() : null;
}

/** Thrown when the person does not allow notifications (now, or blocked before). */
export class PermissionRefused extends Error {}

/**
 * Asks for permission, then subscribes this browser with the server's key (a subscription made for another key, by
 * an earlier install, is replaced). Returns the subscription to send to the server.
 */
export async function subscribeBrowser(publicKey: string): Promise<PushSubscription> {
  if ((await Notification.requestPermission()) !== "granted") throw new PermissionRefused();
  const reg = await registration();
  const existing = await reg.pushManager.getSubscription();
  const key = keyBytes(publicKey);
  if (existing) {
    const current = existing.options.applicationServerKey;
    if (current && new Uint8Array(current).every((byte, i) => byte === key[i]) && current.byteLength === key.byteLength) return existing;
    await existing.unsubscribe();
  }
  return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}
