import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "wouter";
import { clearSession, isAdmin, user } from "../state/session";
import { useDismiss } from "./hooks";
import { ChevronDownIcon, LogoutIcon, ServerIcon, TerminalIcon, UserIcon, UsersIcon } from "./icons";

const ITEM = "flex w-full cursor-pointer items-center gap-2.5 rounded-md px-3 py-2 text-left text-sm";
const PLAIN = `${ITEM} text-slate-700 hover:bg-slate-100 hover:text-slate-900`;
/** The id of the API tokens card on /profile (pages/profile/ApiTokens.tsx). */
export const API_TOKENS_SECTION = "api-tokens";

/** Already at /profile#api-tokens the link changes nothing, so Layout would not scroll: scroll back to the section here. */
function scrollToTokensAgain() {
  if (window.location.hash === `#${API_TOKENS_SECTION}`) document.getElementById(API_TOKENS_SECTION)?.scrollIntoView({ block: "start" });
}

/** The logged-in user's dropdown: who you are, User management (admins), Profile, its API tokens section, Logout. */
export function UserMenu() {
  useSignals();
  const { t } = useTranslation();
  const [location, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(ref, open, close);
  // Leaving the page closes it; so does choosing an item, which may not change the page (the one already open).
  useEffect(() => {
    close();
  }, [location, close]);

  const logout = () => {
    clearSession();
    setOpen(false);
    navigate("/login");
  };

  const name = user.value?.username ?? "";
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        data-testid="user-menu-button"
        aria-label={t("nav.userMenu")}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls="user-menu"
        onClick={() => setOpen((o) => !o)}
        className="flex cursor-pointer items-center gap-2 rounded-lg py-1 pl-1 pr-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
      >
        <span aria-hidden="true" className="flex size-7 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold uppercase text-indigo-700">
          {name.slice(0, 1)}
        </span>
        <span className="hidden max-w-32 truncate sm:inline" data-testid="user-menu-name">
          {name}
        </span>
        <ChevronDownIcon className="size-4 text-slate-400" />
      </button>
      {open && (
        <div
          id="user-menu"
          data-testid="user-menu"
          className="absolute right-0 z-50 mt-2 w-60 origin-top-right rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg"
        >
          <div className="px-3 py-2">
            <p className="text-xs text-slate-500">{t("nav.loggedInAs")}</p>
            <p className="truncate text-sm font-semibold text-slate-900" data-testid="user-menu-username">
              {name}
            </p>
          </div>
          <div className="my-1 h-px bg-slate-100" />
          {isAdmin.value && (
            <Link href="/users" onClick={close} className={PLAIN} data-testid="nav-users">
              <UsersIcon className="size-4 text-slate-400" />
              {t("nav.userManagement")}
            </Link>
          )}
          <Link href="/profile" onClick={close} className={PLAIN} data-testid="nav-profile">
            <UserIcon className="size-4 text-slate-400" />
            {t("nav.profile")}
          </Link>
          <Link
            href={`/profile#${API_TOKENS_SECTION}`}
            onClick={() => {
              close();
              scrollToTokensAgain();
            }}
            className={PLAIN}
            data-testid="nav-api-tokens"
          >
            <TerminalIcon className="size-4 text-slate-400" />
            {t("nav.apiTokens")}
          </Link>
          <Link href="/nodes" onClick={close} className={PLAIN} data-testid="nav-nodes">
            <ServerIcon className="size-4 text-slate-400" />
            {t("nav.nodes")}
          </Link>
          <div className="my-1 h-px bg-slate-100" />
          <button type="button" onClick={logout} className={`${ITEM} text-red-600 hover:bg-red-50 hover:text-red-700`} data-testid="logout-button">
            <LogoutIcon className="size-4" />
            {t("nav.logout")}
          </button>
        </div>
      )}
    </div>
  );
}
