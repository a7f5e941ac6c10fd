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

export function StatusBadge({ status }: { status: UserStatus }) {
  const { t } = useTranslation();
  const active = status === "active";
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${
        active ? "bg-emerald-50 text-emerald-700 ring-emerald-600/20" : "bg-red-50 text-red-700 ring-red-600/20"
      }`}
    >
      <span aria-hidden="true" className={`size-1.5 rounded-full ${active ? "bg-emerald-500" : "bg-red-500"}`} />
      {t(active ? "users.statuses.active" : "users.statuses.disabled")}
    </span>
  );
}
