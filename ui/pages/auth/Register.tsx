import { useSignals } from "@preact/signals-react/runtime";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, Redirect, useLocation, useSearch } from "wouter";
import { register } from "../../api/auth";
import { errorMessage } from "../../api/errors";
import { AuthCard } from "../../components/AuthCard";
import { Button, ButtonLink } from "../../components/Button";
import { Field, FormMessage, TextInput } from "../../components/form";
import { ShieldIcon } from "../../components/icons";
import { PageLoading } from "../../components/PageLoading";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { checkEmail, checkNewPassword, checkUsername, firstProblem, optionalEmail } from "../../components/validation";
import { loadSiteConfig, siteConfig, siteConfigReady } from "../../state/config";
import { isAuthenticated, setSession } from "../../state/session";

/** The invite token of `/register?invite=…`, if any. */
function useInviteToken(): string | undefined {
  const search = useSearch();
  return new URLSearchParams(search).get("invite")?.trim() || undefined;
}

/** What /register shows once registration is closed and the visitor brings no invite. */
function RegistrationClosed() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t("auth.register.title")} subtitle={t("auth.register.closedTitle")}>
      <div data-testid="register-closed" className="flex flex-col items-center gap-5 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-amber-50 text-amber-600 ring-1 ring-amber-200">
          <ShieldIcon className="size-6" />
        </span>
        <p role="status" data-testid="register-closed-message" className="text-sm leading-relaxed text-slate-600">
          {t("auth.register.closed")}
        </p>
        <ButtonLink href="/login" className="w-full" data-testid="register-closed-login">
          {t("auth.register.closedLogin")}
        </ButtonLink>
      </div>
    </AuthCard>
  );
}

export default function Register() {
  useSignals();
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const invite = useInviteToken();
  const [form, setForm] = useState({ username: "", email: "", password: "", confirmPassword: "" });
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  useDocumentTitle(t("auth.register.title"));

  if (isAuthenticated.value && !busy) return <Redirect to="/dashboard" replace />;
  if (!siteConfigReady.value) return <PageLoading />;
  // Without the configuration (it failed to load) the form is shown: the server still says no if it is closed.
  if (siteConfig.value?.registrationOpen === false && !invite) return <RegistrationClosed />;

  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = firstProblem(checkUsername(form.username), checkEmail(form.email), checkNewPassword(form.password, form.confirmPassword));
    if (problem) return setError(t(problem));
    setError("");
    setBusy(true);
    try {
      const reply = await register({
        username: form.username.trim(),
        ...optionalEmail(form.email),
        password: form.password,
        confirmPassword: form.confirmPassword,
        ...(invite ? { invite } : {}),
      });
      if (!reply.token || !reply.user) throw new Error("register reply without token or user");
      // Signed in at once, exactly as a login stores it.
      setSession(reply.token, reply.user);
      toast.success(t("auth.register.success"));
      void loadSiteConfig(); // the first account exists now: firstRun and registrationOpen may have changed
      navigate("/dashboard");
    } catch (err) {
      setError(errorMessage(err, t("auth.register.failed")));
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={t("auth.register.title")}
      subtitle={t("auth.register.subtitle")}
      footer={
        <>
          {t("auth.register.haveAccount")}{" "}
          <Link href="/login" className="font-medium text-indigo-600 hover:text-indigo-500" data-testid="register-login-link">
            {t("auth.register.loginLink")}
          </Link>
        </>
      }
    >
      <form onSubmit={submit} noValidate className="space-y-5" data-testid="register-form">
        {invite ? (
          <p data-testid="register-invited" className="rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-700">
            {t("auth.register.invited")}
          </p>
        ) : (
          siteConfig.value?.firstRun && (
            <p data-testid="register-first-run" className="rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-700">
              {t("auth.register.firstRun")}
            </p>
          )
        )}
        <Field label={t("auth.username")}>
          {(id) => <TextInput id={id} name="username" autoComplete="username" required autoFocus value={form.username} onChange={set("username")} />}
        </Field>
        <Field label={t("auth.email")} optionalLabel={t("common.optional")}>
          {(id) => <TextInput id={id} name="email" type="email" autoComplete="email" value={form.email} onChange={set("email")} />}
        </Field>
        <Field label={t("auth.password")}>
          {(id) => <TextInput id={id} name="password" type="password" autoComplete="new-password" required value={form.password} onChange={set("password")} />}
        </Field>
        <Field label={t("auth.confirmPassword")}>
          {(id) => (
            <TextInput id={id} name="confirmPassword" type="password" autoComplete="new-password" required value={form.confirmPassword} onChange={set("confirmPassword")} />
          )}
        </Field>
        <FormMessage kind="error">{error}</FormMessage>
        <Button type="submit" busy={busy} className="w-full" data-testid="register-submit">
          {busy ? t("auth.register.submitting") : t("auth.register.submit")}
        </Button>
      </form>
    </AuthCard>
  );
}
