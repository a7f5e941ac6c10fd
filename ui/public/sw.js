// Vigil service worker: an offline app shell, and Web Push.
// - install: cache the shell (/, manifest, icons);
// - fetch: /api/ and non-GET requests are never touched; page navigations go to the network first and fall back
//   to the cached "/"; same-origin static files are served from the cache first and cached on first fetch;
// - activate: delete the caches of older versions;
// - push: show the alert the server pushed (server/notifications/providers/webpush.ts builds its payload);
// - notificationclick: open (or focus) its page; the "ack" action acknowledges the problem first.
// scripts/build-ui.ts replaces the build id below, so each build installs a new worker that drops old files.
const BUILD = "__VIGIL_BUILD__";
const CACHE = `vigil-${BUILD}`;
const SHELL = [
  "/",
  "/manifest.webmanifest",
  "/favicon.svg",
  "/icons/icon.svg",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/icon-maskable-512.png",
];
const STATIC = /\.(?:js|css|svg|png|ico|webp|jpg|jpeg|woff2?|webmanifest)$/i;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("vigil-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    // Every page path is answered with the same index.html: keep the newest as the offline shell.
    if (response.ok && (response.headers.get("content-type") || "").includes("text/html")) {
      await cache.put("/", response.clone());
    }
    return response;
  } catch (error) {
    const shell = await cache.match("/");
    if (shell) return shell;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return;

  if (request.mode === "navigate") {
    event.respondWith(networkFirst(request));
    return;
  }
  // Agent downloads and the install script are large or change: leave them to the network.
  if (url.pathname.startsWith("/downloads/") || url.pathname === "/install.sh" || url.pathname === "/sw.js") return;
  if (STATIC.test(url.pathname)) event.respondWith(cacheFirst(request));
});

// --- Web Push -------------------------------------------------------------------------------------------------------

self.addEventListener("push", (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const options = {
    body: data.body || "",
    icon: "/icons/icon-192.png",
    badge: "/icons/icon-192.png",
    // One tag per target and condition: a recovery replaces the down notification, and still alerts.
    tag: data.tag || undefined,
    renotify: Boolean(data.tag),
    // A down alert stays on screen until it is dealt with (where the platform allows).
    requireInteraction: data.severity === "critical",
    timestamp: data.timestamp || undefined,
    data: { url: data.url || "/", ackUrl: data.ackUrl || null },
    actions: data.ackUrl ? [{ action: "ack", title: data.ackLabel || "Acknowledge" }] : [],
  };
  event.waitUntil(self.registration.showNotification(data.title || "Vigil", options));
});

self.addEventListener("notificationclick", (event) => {
  const { url, ackUrl } = event.notification.data || {};
  event.notification.close();
  event.waitUntil(
    (async () => {
      if (event.action === "ack" && ackUrl) await acknowledge(ackUrl);
      await openPage(url || "/");
    })(),
  );
});

/**
 * The alert's link is the signed acknowledgement link people get in mails and chats (…/ack/<token>, or ?token=); its
 * API form on this server is POST /api/ack/<token>, which needs no sign-in (the token is the credential).
 */
async function acknowledge(ackUrl) {
  try {
    const link = new URL(ackUrl, self.location.origin);
    const token = link.searchParams.get("token") || link.pathname.split("/").filter(Boolean).pop();
    if (!token) return;
    await fetch(`/api/ack/${encodeURIComponent(token)}`, { method: "POST", credentials: "omit" });
  } catch {
    // Offline or refused: the page that opens next shows whether the problem is acknowledged.
  }
}

/** Focuses a Vigil window on the page (or opens one); only pages of this origin. */
async function openPage(path) {
  let target = new URL(path, self.location.origin);
  if (target.origin !== self.location.origin) target = new URL("/", self.location.origin);
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    const focused = await open.focus();
    if (focused.url === target.href) return;
    try {
      if (await focused.navigate(target.href)) return;
    } catch {
      // Not controlled by this worker (yet): open a window instead.
    }
  }
  await self.clients.openWindow(target.href);
}
