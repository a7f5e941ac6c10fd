import { signal } from "@preact/signals-react";
import { getConfig, type SiteConfig } from "../api/config";

/** GET /api/config, read once at start-up: version, footer links and whether no account exists yet. */
export const siteConfig = signal<SiteConfig | null>(null);

export async function loadSiteConfig(): Promise<SiteConfig | null> {
  try {
    const { version, links, firstRun } = await getConfig();
    siteConfig.value = { version, links, firstRun };
  } catch (error) {
    console.error("Vigil: could not load /api/config", error);
  }
  return siteConfig.value;
}
