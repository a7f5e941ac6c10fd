import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, Redirect, useLocation } from "wouter";
import { login, loginWithCode, type LoginReply } from "../../api/auth";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { AuthCard } from "../../components/AuthCard";
import { Button } from "../../components/Button";
import { Field, FormMessage, TextInput } from "../../components/form";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { siteConfig, siteConfigReady } from "../../state/config";
import { isAuthenticated, setSession } from "../../state/session";
import { registrationOffer } from "./registrationOffer";
import { SsoBusy, SsoButton, useSsoReturn } from "./SsoSignIn";

export default function Login() {
  useSignals();
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  /** Set when the password was right and a code is asked for (two-factor on). */
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [returnTo, setReturnTo] = useState("/dashboard");
  useDocumentTitle(t("auth.login.title"));

  /** A first step that proved who the user is (password or single sign-on): signed in, or on to the code. */
  const proceed = useCallback((reply: LoginReply, to = "/dashboard") => {
    setReturnTo(to);
    if (reply.twoFactor) {
      setChallenge(reply.challenge);
      setBusy(false);
      return;
    }
    setSession(reply.token, reply.user);
    toast.success(t("auth.login.success"));
    navigate(to);
  }, [navigate, t]);
  const ssoBusy = useSsoReturn(proceed, setError);

  if (isAuthenticated.value && !busy && !ssoBusy) return <Redirect to="/dashboard" replace />;
  const offer = registrationOffer(siteConfig.value, siteConfigReady.value);
  const sso = siteConfig.value?.sso ?? null;
  const passwords = siteConfig.value?.passwordLogin ?? true;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim()) return setError(t("validation.usernameRequired"));
    if (!password) return setError(t("validation.passwordRequired"));
    setError("");
    setBusy(true);
    try {
      proceed(await login({ username: username.trim(), password }));
    } catch (err) {
      setError(errorMessage(err, t("auth.login.failed")));
      setBusy(false);
    }
  };

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    if (!challenge) return;
    if (!code.trim()) return setError(t("auth.twoFactor.codeRequired"));
    setError("");
    setBusy(true);
    try {
      proceed(await loginWithCode(challenge, code.trim()), returnTo);
    } catch (err) {
      // An expired challenge: back to the password.
      if (err instanceof ApiError && err.code === "TWO_FACTOR_CHALLENGE_INVALID") {
        setChallenge(null);
        setCode("");
      }
      setError(errorMessage(err, t("auth.login.failed")));
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={t("auth.login.title")}
      subtitle={t("auth.login.subtitle")}
      footer={
        offer === "askForInvite" ? (
          <span data-testid="login-ask-invite">{t("auth.login.askForInvite")}</span>
        ) : (
          offer !== "loading" && (
            <>
              {t("auth.login.noAccount")}{" "}
              <Link href="/register" className="font-medium text-indigo-600 hover:text-indigo-500" data-testid="login-register-link">
                {t("auth.login.registerLink")}
              </Link>
            </>
          )
        )
      }
    >
      {ssoBusy ? (
        <SsoBusy />
      ) : challenge ? (
        <form onSubmit={submitCode} noValidate className="space-y-5" data-testid="login-code-form">
          <p className="text-sm text-slate-600">{t("auth.twoFactor.prompt")}</p>
          <Field label={t("auth.twoFactor.code")} hint={t("auth.twoFactor.codeHint")}>
            {(id) => (
              <TextInput id={id} name="code" autoComplete="one-time-code" inputMode="text" required autoFocus maxLength={32} value={code} onChange={(e) => setCode(e.target.value)} data-testid="login-code" />
            )}
          </Field>
          <FormMessage kind="error">{error}</FormMessage>
          <Button type="submit" busy={busy} className="w-full" data-testid="login-code-submit">
            {busy ? t("auth.login.submitting") : t("auth.twoFactor.verify")}
          </Button>
        </form>
      ) : (
      <>
      {sso && <SsoButton name={sso.name} primary={!passwords} />}
      {sso && passwords && (
        <p className="my-5 flex items-center gap-3 text-xs uppercase tracking-wide text-slate-400" aria-hidden="true">
          <span className="h-px flex-1 bg-slate-200" /> {t("auth.sso.or")} <span className="h-px flex-1 bg-slate-200" />
        </p>
      )}
      {!passwords && <p className="mt-4 text-center text-sm text-slate-500" data-testid="login-password-off">{t("auth.sso.passwordOff")}</p>}
      {!passwords && error && <div className="mt-4"><FormMessage kind="error">{error}</FormMessage></div>}
      {passwords && (
      <form onSubmit={submit} noValidate className="space-y-5" data-testid="login-form">
        <Field label={t("auth.usernameOrEmail")}>
          {(id) => (
            <TextInput id={id} name="username" autoComplete="username" required autoFocus value={username} onChange={(e) => setUsername(e.target.value)} />
          )}
        </Field>
        <Field label={t("auth.password")}>
          {(id) => (
            <TextInput id={id} name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          )}
        </Field>
        <FormMessage kind="error">{error}</FormMessage>
        <Button type="submit" busy={busy} className="w-full" data-testid="login-submit">
          {busy ? t("auth.login.submitting") : t("auth.login.submit")}
        </Button>
      </form>
      )}
      </>
      )}
    </AuthCard>
  );
}
