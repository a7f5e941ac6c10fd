import type { SiteConfig } from "../../api/config";

/**
 * What a signed-out page (home, /login) offers someone without an account: nothing while the configuration loads,
 * creating the administrator on a fresh instance, registering while anyone may, else asking an administrator for an
 * invite (registration is closed: a register button would only lead to a dead end).
 */
export type RegistrationOffer = "loading" | "firstAdmin" | "register" | "askForInvite";

export function registrationOffer(config: SiteConfig | null, ready: boolean): RegistrationOffer {
  if (!ready) return "loading";
  // Without the configuration (it failed to load) registering is offered: the server still refuses if it is closed.
  if (!config) return "register";
  if (config.firstRun) return "firstAdmin";
  return config.registrationOpen ? "register" : "askForInvite";
}
