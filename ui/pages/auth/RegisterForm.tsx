import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useLocation } from "wouter";
import { register } from "../../api/auth";
import { errorMessage } from "../../api/errors";
import { AuthCard } from "../../components/AuthCard";
import { Button } from "../../components/Button";
import { Field, FormMessage, TextInput } from "../../components/form";
import { optionalEmail } from "../../components/validation";
import { loadSiteConfig } from "../../state/config";
import { setSession } from "../../state/session";
import { registerProblems, type RegisterFields } from "./registerProblems";

interface RegisterFormProps {
  /** The token of the invite link the visitor came with (already checked), if any. */
  invite?: string;
  /** A banner above the fields: the first-run note, or what the invite gives. */
  notice?: ReactNode;
  /** Tells whether the page is busy signing in (so a redirect does not cut the welcome short). */
  onBusy: (busy: boolean) => void;
}

const FIELDS = [
  { name: "username", label: "auth.username", type: "text", autoComplete: "username" },
  { name: "email", label: "auth.email", type: "email", autoComplete: "email" },
  { name: "password", label: "auth.password", type: "password", autoComplete: "new-password" },
  { name: "confirmPassword", label: "auth.confirmPassword", type: "password", autoComplete: "new-password" },
] as const;

/** The register form: every field's problem is shown at once, under its field, and follows the typing after a try. */
export function RegisterForm({ invite, notice, onBusy }: RegisterFormProps) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [form, setForm] = useState<RegisterFields>({ username: "", email: "", password: "", confirmPassword: "" });
  const [tried, setTried] = useState(false);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const problems = tried ? registerProblems(form) : {};

  const working = (value: boolean) => {
    setBusy(value);
    onBusy(value);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    setError("");
    if (Object.keys(registerProblems(form)).length > 0) return;
    working(true);
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
      working(false);
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
        {notice}
        {FIELDS.map(({ name, label, type, autoComplete }, index) => {
          const problem = problems[name];
          return (
            <Field
              key={name}
              label={t(label)}
              optionalLabel={name === "email" ? t("common.optional") : undefined}
              error={problem && t(problem)}
              errorTestId={`register-${name}-error`}
            >
              {(id) => (
                <TextInput
                  id={id}
                  name={name}
                  type={type}
                  autoComplete={autoComplete}
                  required={name !== "email"}
                  autoFocus={index === 0}
                  value={form[name]}
                  onChange={(e) => setForm((f) => ({ ...f, [name]: e.target.value }))}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? `${id}-error` : undefined}
                />
              )}
            </Field>
          );
        })}
        <FormMessage kind="error">{error}</FormMessage>
        <Button type="submit" busy={busy} className="w-full" data-testid="register-submit">
          {busy ? t("auth.register.submitting") : t("auth.register.submit")}
        </Button>
      </form>
    </AuthCard>
  );
}

/** A note above the register form's fields: the first-run note, or what an invite gives. */
export function RegisterNotice({ children, "data-testid": testId }: { children: ReactNode; "data-testid": string }) {
  return (
    <p data-testid={testId} className="rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-700">
      {children}
    </p>
  );
}
