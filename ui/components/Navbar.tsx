import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "wouter";
import { canInstall, promptInstall } from "../state/install";
import { isAuthenticated } from "../state/session";
import { ButtonLink } from "./Button";
import { useMediaQuery, useScrolled } from "./hooks";
import { CloseIcon, DownloadIcon, LogoMark, MenuIcon } from "./icons";
import { LanguageSwitch } from "./LanguageSwitch";
import { NAV_LINKS, isActivePath } from "./nav";
import { UserMenu } from "./UserMenu";

/** Tailwind's md breakpoint: at and above it the links sit in the bar, below it in the hamburger dropdown. */
// Seven links, the language switch and the user menu fit one row from here; narrower screens open them from a menu.
const DESKTOP = "(min-width: 1200px)";

function NavLinks({ vertical }: { vertical: boolean }) {
  useSignals();
  const { t } = useTranslation();
  const [location] = useLocation();
  const base = vertical ? "flex items-center gap-2 rounded-lg px-3 py-2.5 text-sm font-medium" : "rounded-lg px-3 py-2 text-sm font-medium";
  return (
    <>
      {NAV_LINKS.map((link) => {
        const active = isActivePath(location, link.href);
        return (
          <Link
            key={link.href}
            href={link.href}
            data-testid={`nav-link-${link.id}`}
            aria-current={active ? "page" : undefined}
            className={`${base} transition-colors ${
              active ? "bg-indigo-50 text-indigo-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            }`}
          >
            {t(link.label)}
          </Link>
        );
      })}
      {/* Only when the browser offers an install prompt: a button that does nothing would be a lie. */}
      {canInstall.value && (
        <button
          type="button"
          data-testid="nav-install"
          onClick={() => void promptInstall()}
          className={`${base} flex cursor-pointer items-center gap-1.5 text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900`}
        >
          <DownloadIcon className="size-4" />
          {t("nav.installApp")}
        </button>
      )}
    </>
  );
}

export function Navbar() {
  useSignals();
  const { t } = useTranslation();
  const [location] = useLocation();
  const scrolled = useScrolled(10);
  const desktop = useMediaQuery(DESKTOP);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    setMenuOpen(false);
  }, [location, desktop]);
  const authed = isAuthenticated.value;

  return (
    <nav
      data-testid="navbar"
      data-scrolled={scrolled ? "true" : "false"}
      aria-label={t("nav.main")}
      className={`sticky top-0 z-40 border-b transition-all duration-200 ${
        scrolled ? "border-slate-200 bg-white/80 shadow-sm backdrop-blur-md" : "border-slate-200/60 bg-white"
      }`}
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 sm:px-6 lg:px-8">
        <Link href={authed ? "/dashboard" : "/"} className="mr-2 flex items-center gap-2" data-testid="nav-brand" aria-label={t("nav.home")}>
          <LogoMark className="size-8" />
          <span className="text-lg font-semibold tracking-tight text-slate-900">{t("app.name")}</span>
        </Link>
        {authed && desktop && (
          <div className="flex items-center gap-1" data-testid="nav-links">
            <NavLinks vertical={false} />
          </div>
        )}
        <div className="ml-auto flex items-center gap-2">
          <LanguageSwitch />
          {authed ? (
            <UserMenu />
          ) : (
            <ButtonLink href="/login" size="sm" data-testid="nav-login">
              {t("nav.login")}
            </ButtonLink>
          )}
          {authed && !desktop && (
            <button
              type="button"
              data-testid="nav-menu-button"
              aria-label={t(menuOpen ? "nav.closeMenu" : "nav.openMenu")}
              aria-expanded={menuOpen}
              aria-controls="nav-mobile-menu"
              onClick={() => setMenuOpen((o) => !o)}
              className="cursor-pointer rounded-lg p-2 text-slate-600 hover:bg-slate-100"
            >
              {menuOpen ? <CloseIcon /> : <MenuIcon />}
            </button>
          )}
        </div>
      </div>
      {authed && !desktop && menuOpen && (
        <div id="nav-mobile-menu" data-testid="nav-mobile-menu" className="border-t border-slate-100 bg-white px-4 pb-4 pt-2 shadow-sm">
          <div className="flex flex-col gap-1">
            <NavLinks vertical />
          </div>
        </div>
      )}
    </nav>
  );
}
