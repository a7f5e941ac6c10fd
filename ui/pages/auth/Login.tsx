import { useSignals } from "@preact/signals-react/runtime";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, Redirect, useLocation } from "wouter";
import { login } from "../../api/auth";
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
      if (!reply.token || !reply.user) throw new Error("login reply without token or user");
      setSession(reply.token, reply.user);
      toast.success(t("auth.login.success"));
      navigate("/dashboard");
    } catch (err) {
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
    </AuthCard>
  );
}
