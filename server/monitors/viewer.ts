// What a viewer (the read-only role) sees of a monitor: everything but what could be a credential — header values,
// the request body, a password in the URL, and a push monitor's token (which lets anyone report for it).
import type { PublicMonitor } from "./public";

export const HIDDEN = "••••";

function hideUserinfo(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    return `${u.protocol}//${HIDDEN}@${u.host}${u.pathname}${u.search}${u.hash}`;
  } catch {
    return url;
  }
}

export function forViewer(m: PublicMonitor): PublicMonitor {
  const url = hideUserinfo(m.url);
  return {
    ...m,
    url,
    target: m.target === m.url ? url : m.target,
    headers: m.headers.map((h) => ({ ...h, value: HIDDEN })),
    body: m.body ? HIDDEN : m.body,
    pushToken: null,
  };
}
