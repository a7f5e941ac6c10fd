import { useSignals } from "@preact/signals-react/runtime";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, Redirect, useLocation } from "wouter";
import { login, loginWithCode } from "../../api/auth";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { AuthCard } from "../../components/AuthCard";
import { Button } from "../../components/Button";
import { Field, FormMessage, TextInput } from "../../components/form";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { siteConfig, siteConfigReady } from "../../state/config";
import { isAuthenticated, setSession } from "../../state/session";
import { registrationOffer } from "./registrationOffer";

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
  useDocumentTitle(t("auth.login.title"));

  if (isAuthenticated.value && !busy) return <Redirect to="/dashboard" replace />;
  const offer = registrationOffer(siteConfig.value, siteConfigReady.value);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim()) return setError(t("validation.usernameRequired"));
    if (!password) return setError(t("validation.passwordRequired"));
    setError("");
    setBusy(true);
    try {
      const reply = await login({ username: username.trim(), password });
      if (reply.twoFactor) {
        setChallenge(reply.challenge);
        setBusy(false);
        return;
      }
      if (!reply.token || !reply.user) throw new Error("login reply without token or user");
      signedIn(reply.token, reply.user);
    } catch (err) {
      setError(errorMessage(err, t("auth.login.failed")));
      setBusy(false);
    }
  };

  const signedIn = (token: string, user: Parameters<typeof setSession>[1]) => {
    setSession(token, user);
    toast.success(t("auth.login.success"));
    navigate("/dashboard");
  };

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    if (!challenge) return;
    if (!code.trim()) return setError(t("auth.twoFactor.codeRequired"));
    setError("");
    setBusy(true);
    try {
      const reply = await loginWithCode(challenge, code.trim());
      signedIn(reply.token, reply.user);
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
      {challenge ? (
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
    </AuthCard>
  );
}
