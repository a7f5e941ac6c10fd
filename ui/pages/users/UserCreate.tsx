import { RoleOptions } from "../../components/RoleBadge";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation } from "wouter";
import { errorMessage } from "../../api/errors";
import { createUser, type Role } from "../../api/users";
import { Button, ButtonLink } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { Field, FormMessage, SelectInput, TextInput } from "../../components/form";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { checkEmail, checkNewPassword, checkUsername, firstProblem, optionalEmail } from "../../components/validation";

export default function UserCreate() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  useDocumentTitle(t("users.form.createTitle"));
  const [form, setForm] = useState({ username: "", email: "", password: "", confirmPassword: "", role: "editor" as Role });
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = firstProblem(checkUsername(form.username), checkEmail(form.email), checkNewPassword(form.password, form.confirmPassword));
    if (problem) return setError(t(problem));
    setError("");
    setSaving(true);
    try {
      await createUser({ username: form.username.trim(), ...optionalEmail(form.email), password: form.password, role: form.role });
      toast.success(t("users.created"));
      navigate("/users");
    } catch (err) {
      setError(errorMessage(err, t("users.createFailed")));
      setSaving(false);
    }
  };

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader
        title={t("users.form.createTitle")}
        actions={
          <ButtonLink href="/users" variant="secondary" data-testid="user-back">
            {t("users.form.backToList")}
          </ButtonLink>
        }
      />
      <Card>
        <form onSubmit={submit} noValidate className="space-y-5 p-5 sm:p-6" data-testid="user-create-form">
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label={t("auth.username")}>
              {(id) => <TextInput id={id} name="username" autoComplete="off" required value={form.username} onChange={set("username")} />}
            </Field>
            <Field label={t("auth.email")} optionalLabel={t("common.optional")}>
              {(id) => <TextInput id={id} name="email" type="email" autoComplete="off" value={form.email} onChange={set("email")} />}
            </Field>
            <Field label={t("auth.password")}>
              {(id) => <TextInput id={id} name="password" type="password" autoComplete="new-password" required value={form.password} onChange={set("password")} />}
            </Field>
            <Field label={t("auth.confirmPassword")}>
              {(id) => (
                <TextInput id={id} name="confirmPassword" type="password" autoComplete="new-password" required value={form.confirmPassword} onChange={set("confirmPassword")} />
              )}
            </Field>
            <Field label={t("users.form.role")}>
              {(id) => (
                <SelectInput id={id} name="role" value={form.role} onChange={set("role")}>
                  <RoleOptions />
                </SelectInput>
              )}
            </Field>
          </div>
          <FormMessage kind="error">{error}</FormMessage>
          <div className="flex justify-end">
            <Button type="submit" busy={saving} data-testid="user-create-submit">
              {saving ? t("common.saving") : t("users.form.submitCreate")}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
