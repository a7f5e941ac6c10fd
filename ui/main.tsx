import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { setupI18n } from "./i18n";
import { loadSiteConfig } from "./state/config";
import { setupInstallPrompt } from "./state/install";
import { restoreSession, syncSessionAcrossTabs } from "./state/restore";

/** The service worker (offline app shell), in production builds only: in development it would cache stale code. */
function registerServiceWorker() {
  if (process.env.NODE_ENV !== "production" || !("serviceWorker" in navigator)) return;
  const register = () => navigator.serviceWorker.register("/sw.js").catch((error) => console.error("Vigil: service worker registration failed", error));
  if (document.readyState === "complete") void register();
  else window.addEventListener("load", () => void register(), { once: true });
}

void setupI18n();
setupInstallPrompt();
void restoreSession();
syncSessionAcrossTabs();
void loadSiteConfig();
registerServiceWorker();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
