import type { ParseKeys } from "i18next";

/** A link is active on its own path and on every path under it (spec §2). */
export function isActivePath(path: string, href: string): boolean {
  return path === href || path.startsWith(href + "/");
}

export interface NavLinkItem {
  href: string;
  label: ParseKeys;
  /** `nav-link-<id>` */
  id: string;
}

/** The logged-in navigation, in order. Install app follows them as a button. */
export const NAV_LINKS: NavLinkItem[] = [
  { href: "/dashboard", label: "nav.dashboard", id: "dashboard" },
  { href: "/monitors", label: "nav.monitors", id: "monitors" },
  { href: "/agents", label: "nav.agents", id: "agents" },
  { href: "/incidents", label: "nav.incidents", id: "incidents" },
  { href: "/maintenance", label: "nav.maintenance", id: "maintenance" },
  { href: "/reports", label: "nav.reports", id: "reports" },
  { href: "/status/config", label: "nav.statusPage", id: "status" },
  { href: "/notifications", label: "nav.notifications", id: "notifications" },
  { href: "/oncall", label: "nav.oncall", id: "oncall" },
];
