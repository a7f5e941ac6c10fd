import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Role, UserStatus } from "../api/users";

export function RoleBadge({ role: given }: { role: Role }) {
  const { t } = useTranslation();
  // A user stored by an older version in this browser may still say "user": the editor it became.
  const role: Role = (given as string) === "user" ? "editor" : given;
  const colours = {
    admin: "bg-indigo-50 text-indigo-700 ring-indigo-600/20",
    editor: "bg-slate-50 text-slate-600 ring-slate-500/20",
    viewer: "bg-sky-50 text-sky-700 ring-sky-600/20",
  }[role];
  return (
    <span data-role={role} className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${colours}`}>
      {t(`users.roles.${role}`)}
    </span>
  );
}

/** A pill with a coloured dot: green for a good state, grey or red otherwise. */
export function DotBadge({ tone, children, ...attributes }: { tone: "green" | "red" | "grey"; children: ReactNode; "data-testid"?: string; "data-status"?: string }) {
  const colours = {
    green: ["bg-emerald-50 text-emerald-700 ring-emerald-600/20", "bg-emerald-500"],
    red: ["bg-red-50 text-red-700 ring-red-600/20", "bg-red-500"],
    grey: ["bg-slate-50 text-slate-500 ring-slate-500/20", "bg-slate-400"],
  }[tone];
  return (
    <span {...attributes} className={`inline-flex shrink-0 items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${colours[0]}`}>
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

/** The roles in the order forms offer them, least first. */
export const ROLE_CHOICES: Role[] = ["viewer", "editor", "admin"];

/** A role select's options, each with what the role may do. */
export function RoleOptions() {
  const { t } = useTranslation();
  return (
    <>
      {ROLE_CHOICES.map((r) => (
        <option key={r} value={r}>
          {t(`users.roles.${r}`)} — {t(`users.roleHints.${r}`)}
        </option>
      ))}
    </>
  );
}
