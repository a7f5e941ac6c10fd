import { signal } from "@preact/signals-react";
import { getConfig, type SiteConfig } from "../api/config";

/**
 * GET /api/config, read at start-up (and again after a registration): version, footer links, whether no account
 * exists yet and whether anyone may register.
 */
export const siteConfig = signal<SiteConfig | null>(null);
/** True once the first read has finished, whether it worked or not. */
export const siteConfigReady = signal(false);

export async function loadSiteConfig(): Promise<SiteConfig | null> {
  try {
    const { version, links, firstRun, registrationOpen, statusPage, sso, passwordLogin } = await getConfig();
    siteConfig.value = { version, links, firstRun, registrationOpen, statusPage, sso, passwordLogin };
  } catch (error) {
    console.error("Vigil: could not load /api/config", error);
  } finally {
    siteConfigReady.value = true;
  }
  return siteConfig.value;
}
