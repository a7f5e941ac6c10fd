import { useSignals } from "@preact/signals-react/runtime";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { ApiError } from "../../api/client";
import { checkInvite, type InviteCheck } from "../../api/registration";
import { AuthCard } from "../../components/AuthCard";
import { LoadError } from "../../components/LoadState";
import { PageLoading } from "../../components/PageLoading";
import { useFormatDateTime } from "../../components/time";
import { useLoad } from "../../components/useLoad";
import { siteConfig } from "../../state/config";
import { RegisterDeadEnd } from "./RegisterDeadEnd";
import { RegisterForm, RegisterNotice } from "./RegisterForm";

/** A token the server calls malformed (400) is a link that cannot work: said like an unknown one. */
function malformedIsInvalid(error: unknown): InviteCheck {
  if (error instanceof ApiError && error.status === 400) return { state: "invalid" };
  throw error;
}

/** What a valid invite gives: the role, and until when the link works. */
function InviteNotice({ invite }: { invite: Extract<InviteCheck, { state: "valid" }> }) {
  const { t } = useTranslation();
  const formatTime = useFormatDateTime();
  return (
    <RegisterNotice data-testid="register-invited">
      <span className="block" data-testid="register-invite-role">
        {t(`auth.register.invitedAs.${invite.role}`)}
      </span>
      <span className="mt-1 block text-xs" data-testid="register-invite-expires" title={formatTime.zoneOf(invite.expiresAt)}>
        {t("auth.register.inviteExpires", { time: formatTime(invite.expiresAt) })}
      </span>
    </RegisterNotice>
  );
}

/**
 * /register?invite=…: the link is checked as the page opens. A used, expired, revoked or unknown one says so at once
 * (no form); a valid one shows the form under what it gives.
 */
export function InvitedRegister({ token, onBusy }: { token: string; onBusy: (busy: boolean) => void }) {
  useSignals();
  const { t } = useTranslation();
  const check = useCallback(() => checkInvite(token).catch(malformedIsInvalid), [token]);
  const { state, reload } = useLoad(check, t("auth.register.invite.checkFailed"));

  if (state.phase === "loading") return <PageLoading />;
  if (state.phase === "error") {
    return (
      <AuthCard title={t("auth.register.title")} subtitle={t("auth.register.subtitle")}>
        <LoadError message={state.message} onRetry={() => void reload()} data-testid="register-invite-error" />
      </AuthCard>
    );
  }
  const invite = state.data;
  if (invite.state === "valid") return <RegisterForm invite={token} onBusy={onBusy} notice={<InviteNotice invite={invite} />} />;
  return (
    <RegisterDeadEnd
      testId={`register-invite-${invite.state}`}
      heading={t(`auth.register.invite.${invite.state}.title`)}
      message={t(`auth.register.invite.${invite.state}.message`)}
    >
      {siteConfig.value?.registrationOpen && (
        <Link href="/register" className="text-sm font-medium text-indigo-600 hover:text-indigo-500" data-testid="register-without-invite">
          {t("auth.register.withoutInvite")}
        </Link>
      )}
    </RegisterDeadEnd>
  );
}
