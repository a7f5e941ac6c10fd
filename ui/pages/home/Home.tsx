import { useSignals } from "@preact/signals-react/runtime";
import type { ParseKeys } from "i18next";
import type { ComponentType, SVGProps } from "react";
import { useTranslation } from "react-i18next";
import { Redirect } from "wouter";
import { ButtonLink } from "../../components/Button";
import {
  ActivityIcon,
  BellIcon,
  DeviceIcon,
  GaugeIcon,
  LanguagesIcon,
  ServerIcon,
  ShieldIcon,
  UsersIcon,
} from "../../components/icons";
import { PageLoading } from "../../components/PageLoading";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { siteConfig, siteConfigReady } from "../../state/config";
import { isAuthenticated, sessionReady, token } from "../../state/session";
import { registrationOffer } from "../auth/registrationOffer";

type FeatureId = "monitors" | "agents" | "statusPage" | "notifications" | "users" | "languages" | "pwa" | "selfHosted";

const FEATURES: { id: FeatureId; icon: ComponentType<SVGProps<SVGSVGElement>> }[] = [
  { id: "monitors", icon: ActivityIcon },
  { id: "agents", icon: ServerIcon },
  { id: "statusPage", icon: GaugeIcon },
  { id: "notifications", icon: BellIcon },
  { id: "users", icon: UsersIcon },
  { id: "languages", icon: LanguagesIcon },
  { id: "pwa", icon: DeviceIcon },
  { id: "selfHosted", icon: ShieldIcon },
];

export default function Home() {
  useSignals();
  const { t } = useTranslation();
  useDocumentTitle();
  // The landing page is for visitors: someone signed in goes straight to their dashboard.
  if (isAuthenticated.value) return <Redirect to="/dashboard" replace />;
  // A stored token still being checked (GET /api/auth/me) may turn out to be a session: wait rather than flash.
  if (!sessionReady.value && token.value) return <PageLoading />;
  const offer = registrationOffer(siteConfig.value, siteConfigReady.value);
  const registers = offer === "register" || offer === "firstAdmin";
  return (
    <div data-testid="home">
      <section className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-indigo-600 via-indigo-600 to-violet-600 px-6 py-16 text-center text-white shadow-sm sm:px-12 sm:py-20">
        <p className="text-sm font-medium uppercase tracking-widest text-indigo-200">{t("app.tagline")}</p>
        <h1 className="mx-auto mt-4 max-w-3xl text-3xl font-semibold tracking-tight sm:text-5xl">{t("home.title")}</h1>
        <p className="mx-auto mt-5 max-w-2xl text-base text-indigo-100 sm:text-lg">{t("home.subtitle")}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {registers && (
            <ButtonLink href="/register" variant="secondary" data-testid="home-register">
              {t(offer === "firstAdmin" ? "home.createAdmin" : "home.getStarted")}
            </ButtonLink>
          )}
          {/* Without a register button, signing in is the page's main action. */}
          <ButtonLink href="/login" variant={registers ? "onDark" : "secondary"} data-testid="home-login">
            {t("home.login")}
          </ButtonLink>
        </div>
        {offer === "askForInvite" && (
          <p data-testid="home-invite-only" className="mx-auto mt-4 max-w-xl text-sm text-indigo-100">
            {t("home.inviteOnly")}
          </p>
        )}
      </section>

      <section className="mt-14" aria-labelledby="features-title">
        <h2 id="features-title" className="text-center text-2xl font-semibold tracking-tight text-slate-900">
          {t("home.featuresTitle")}
        </h2>
        <ul data-testid="features" className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map(({ id, icon: Icon }) => (
            <li key={id} data-testid={`feature-${id}`} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <span className="flex size-10 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
                <Icon className="size-5" />
              </span>
              <h3 className="mt-4 font-semibold text-slate-900">{t(`home.features.${id}.title` as ParseKeys)}</h3>
              <p className="mt-1.5 text-sm leading-relaxed text-slate-500">{t(`home.features.${id}.description` as ParseKeys)}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
