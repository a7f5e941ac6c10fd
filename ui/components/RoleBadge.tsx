import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Role, UserStatus } from "../api/users";

export function RoleBadge({ role }: { role: Role }) {
  const { t } = useTranslation();
  const admin = role === "admin";
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${
        admin ? "bg-indigo-50 text-indigo-700 ring-indigo-600/20" : "bg-slate-50 text-slate-600 ring-slate-500/20"
      }`}
    >
      {t(admin ? "users.roles.admin" : "users.roles.user")}
    </span>
  );
}

/** A pill with a coloured dot: green for a good state, grey or red otherwise. */
export function DotBadge({ tone, children }: { tone: "green" | "red" | "grey"; children: ReactNode }) {
  const colours = {
    green: ["bg-emerald-50 text-emerald-700 ring-emerald-600/20", "bg-emerald-500"],
    red: ["bg-red-50 text-red-700 ring-red-600/20", "bg-red-500"],
    grey: ["bg-slate-50 text-slate-500 ring-slate-500/20", "bg-slate-400"],
  }[tone];
  return (
    <span className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${colours[0]}`}>
      <span aria-hidden="true" className={`size-1.5 rounded-full ${colours[1]}`} />
      {children}
    </span>
  );
}

export function StatusBadge({ status }: { status: UserStatus }) {
  const { t } = useTranslation();
  const active = status === "active";
  return <DotBadge tone={active ? "green" : "red"}>{t(active ? "users.statuses.active" : "users.statuses.disabled")}</DotBadge>;
}
