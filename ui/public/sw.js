// Vigil service worker: an offline app shell.
// - install: cache the shell (/, manifest, icons);
// - fetch: /api/ and non-GET requests are never touched; page navigations go to the network first and fall back
//   to the cached "/"; same-origin static files are served from the cache first and cached on first fetch;
// - activate: delete the caches of older versions.
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
