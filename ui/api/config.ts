import { api } from "./client";

export interface SiteConfig {
  version: string;
  links: { blog: string; video: string; tempMail: string };
  /** True while no account exists: the first one to register becomes the administrator. */
  firstRun: boolean;
}

export const getConfig = () => api.get<SiteConfig>("/api/config");
