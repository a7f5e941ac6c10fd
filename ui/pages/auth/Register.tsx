import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Redirect, useSearch } from "wouter";
import { PageLoading } from "../../components/PageLoading";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { siteConfig, siteConfigReady } from "../../state/config";
import { isAuthenticated } from "../../state/session";
import { InvitedRegister } from "./InvitedRegister";
import { RegisterDeadEnd } from "./RegisterDeadEnd";
import { RegisterForm, RegisterNotice } from "./RegisterForm";

/** The invite token of `/register?invite=…`, if any. */
function useInviteToken(): string | undefined {
  const search = useSearch();
  return new URLSearchParams(search).get("invite")?.trim() || undefined;
}

export default function Register() {
  useSignals();
  const { t } = useTranslation();
  const invite = useInviteToken();
  const [busy, setBusy] = useState(false);
  useDocumentTitle(t("auth.register.title"));

  if (isAuthenticated.value && !busy) return <Redirect to="/dashboard" replace />;
  if (invite) return <InvitedRegister token={invite} onBusy={setBusy} />;
  if (!siteConfigReady.value) return <PageLoading />;
  // Without the configuration (it failed to load) the form is shown: the server still says no if it is closed.
  if (siteConfig.value?.registrationOpen === false) {
    return <RegisterDeadEnd testId="register-closed" heading={t("auth.register.closedTitle")} message={t("auth.register.closed")} />;
  }
  const firstRun = siteConfig.value?.firstRun && <RegisterNotice data-testid="register-first-run">{t("auth.register.firstRun")}</RegisterNotice>;
  return <RegisterForm onBusy={setBusy} notice={firstRun} />;
}
