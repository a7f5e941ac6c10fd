import { api } from "./client";

export interface SiteConfig {
  version: string;
  links: { blog: string; video: string; tempMail: string };
  /** True while no account exists: the first one to register becomes the administrator. */
  firstRun: boolean;
  /** Anyone may register right now: no account exists yet, or an admin opened registration. Else only with an invite. */
  registrationOpen: boolean;
  /** This host name is a status page's custom domain: its slug (the page is shown at "/"). */
  statusPage: string | null;
  /** Single sign-on offered on the sign-in page: "Sign in with {name}"; null when off. */
  sso: { name: string } | null;
  /** Whether passwords may sign in (an admin may leave single sign-on alone). */
  passwordLogin: boolean;
}

export const getConfig = () => api.get<SiteConfig>("/api/config");
