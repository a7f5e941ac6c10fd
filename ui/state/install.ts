import { computed, signal } from "@preact/signals-react";

/** Chromium's `beforeinstallprompt` event (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: "accepted" | "dismissed"; platform: string }>;
}

export const INSTALL_READY_EVENT = "vigil:install-ready";

/** The held install prompt, or null when the browser offers none (yet, or any more). */
export const installPrompt = signal<BeforeInstallPromptEvent | null>(null);
export const canInstall = computed(() => installPrompt.value !== null);

/** Tells whoever listens whether Install app can show a prompt now. */
function broadcast() {
  window.dispatchEvent(new CustomEvent(INSTALL_READY_EVENT, { detail: { canInstall: canInstall.value } }));
}

let listening = false;

/** Holds the browser's install prompt instead of letting it show by itself. Safe to call more than once. */
export function setupInstallPrompt() {
  if (listening) return;
  listening = true;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    installPrompt.value = event as BeforeInstallPromptEvent;
    broadcast();
  });
  window.addEventListener("appinstalled", () => {
    installPrompt.value = null;
    broadcast();
  });
}

/** Install app: shows the held prompt; does nothing when none is held. Either outcome uses the prompt up. */
export async function promptInstall(): Promise<void> {
  const held = installPrompt.value;
  if (!held) return;
  try {
    await held.prompt();
    await held.userChoice;
  } catch (error) {
    console.error("Vigil: install prompt failed", error);
  } finally {
    installPrompt.value = null;
    broadcast();
  }
}
