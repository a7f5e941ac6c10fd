// Single sign-on on the sign-in page: the "Sign in with …" button (a plain link: the server redirects to the
// provider), and the way back — the provider's answer arrives as /login?sso=TICKET (traded once for a session) or
// /login?ssoError=CODE (explained in the page's language).
//
// data-testids: `login-sso`, `login-sso-busy`.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { LoginReply } from "../../api/auth";
import { errorMessage } from "../../api/errors";
import { exchangeSsoTicket, ssoStartUrl } from "../../api/sso";
import { buttonClass, Spinner } from "../../components/Button";

const SSO_ERRORS = ["SSO_DENIED", "SSO_STATE_INVALID", "SSO_FAILED", "SSO_NOT_CONFIGURED", "SSO_EMAIL_UNVERIFIED", "SSO_NO_ACCOUNT", "SSO_ACCOUNT_DISABLED", "SSO_DISCOVERY_FAILED"] as const;

export function SsoButton({ name, primary }: { name: string; primary: boolean }) {
  const { t } = useTranslation();
  return (
    <a href={ssoStartUrl()} className={buttonClass(primary ? "primary" : "secondary", "md", "w-full")} data-testid="login-sso">
      {t("auth.sso.signInWith", { name })}
    </a>
  );
}

/**
 * Reads (and clears from the address bar) what the provider's round trip left in the URL. Calls `onReply` with the
 * exchange's answer and where to go, or `onError` with a message.
 */
export function useSsoReturn(onReply: (reply: LoginReply, returnTo: string) => void, onError: (message: string) => void): boolean {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(() => new URLSearchParams(window.location.search).has("sso"));
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const params = new URLSearchParams(window.location.search);
    const ticket = params.get("sso");
    const error = params.get("ssoError");
    const returnTo = params.get("returnTo") ?? "/dashboard";
    if (!ticket && !error) return;
    window.history.replaceState(null, "", "/login");
    if (error) {
      onError(t(`auth.sso.errors.${(SSO_ERRORS as readonly string[]).includes(error) ? (error as (typeof SSO_ERRORS)[number]) : "SSO_FAILED"}`));
      return;
    }
    exchangeSsoTicket(ticket!).then(
      (reply) => {
        setBusy(false);
        onReply(reply, returnTo.startsWith("/") && !returnTo.startsWith("//") ? returnTo : "/dashboard");
      },
      (err) => {
        setBusy(false);
        onError(errorMessage(err, t("auth.sso.errors.SSO_FAILED")));
      },
    );
  }, [onReply, onError, t]);
  return busy;
}

export function SsoBusy() {
  const { t } = useTranslation();
  return (
    <p className="flex items-center justify-center gap-2 py-6 text-sm text-slate-600" data-testid="login-sso-busy">
      <Spinner /> {t("auth.sso.signingIn")}
    </p>
  );
}
