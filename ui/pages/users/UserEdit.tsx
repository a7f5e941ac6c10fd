import { RoleOptions } from "../../components/RoleBadge";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useParams } from "wouter";
import { errorMessage } from "../../api/errors";
import { changePassword, getUser, updateUser, type PublicUser, type Role, type UserStatus } from "../../api/users";
import { Button, ButtonLink } from "../../components/Button";
import { Card, CardHeader, PageHeader } from "../../components/Card";
import { Field, FormMessage, SelectInput, TextInput } from "../../components/form";
import { PageLoading } from "../../components/PageLoading";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { checkEmail, checkNewPassword, checkUsername, firstProblem, optionalEmail } from "../../components/validation";
import { setUser, user as sessionUser } from "../../state/session";
import { TwoFactorReset } from "./TwoFactorAdmin";

type Outcome = { kind: "error" | "success"; text: string } | null;

/** Username, email, role and status of one account. */
function EditForm({ target, onSaved }: { target: PublicUser; onSaved: (u: PublicUser) => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState({ username: target.username, email: target.email ?? "", role: target.role, status: target.status });
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [saving, setSaving] = useState(false);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = firstProblem(checkUsername(form.username), checkEmail(form.email));
    if (problem) return setOutcome({ kind: "error", text: t(problem) });
    setOutcome(null);
    setSaving(true);
    try {
      const reply = await updateUser(target.id, {
        username: form.username.trim(),
        ...optionalEmail(form.email),
        role: form.role as Role,
        status: form.status as UserStatus,
      });
      if (reply.user) onSaved(reply.user);
      setOutcome({ kind: "success", text: t("users.updated") });
      toast.success(t("users.updated"));
    } catch (err) {
      setOutcome({ kind: "error", text: errorMessage(err, t("users.updateFailed")) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card>
      <form onSubmit={submit} noValidate className="space-y-5 p-5 sm:p-6" data-testid="user-edit-form">
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label={t("auth.username")}>
            {(id) => <TextInput id={id} name="username" autoComplete="off" required value={form.username} onChange={set("username")} />}
          </Field>
          <Field label={t("auth.email")} optionalLabel={t("common.optional")}>
            {(id) => <TextInput id={id} name="email" type="email" autoComplete="off" value={form.email} onChange={set("email")} />}
          </Field>
          <Field label={t("users.form.role")}>
            {(id) => (
              <SelectInput id={id} name="role" value={form.role} onChange={set("role")}>
                <RoleOptions />
              </SelectInput>
            )}
          </Field>
          <Field label={t("users.form.status")}>
            {(id) => (
              <SelectInput id={id} name="status" value={form.status} onChange={set("status")}>
                <option value="active">{t("users.statuses.active")}</option>
                <option value="disabled">{t("users.statuses.disabled")}</option>
              </SelectInput>
            )}
          </Field>
        </div>
        {outcome && <FormMessage kind={outcome.kind}>{outcome.text}</FormMessage>}
        <div className="flex justify-end">
          <Button type="submit" busy={saving} data-testid="user-edit-submit">
            {saving ? t("common.saving") : t("common.save")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** An admin sets a new password for someone else (no current password needed). */
function ResetPasswordForm({ target }: { target: PublicUser }) {
  const { t } = useTranslation();
  const [form, setForm] = useState({ newPassword: "", confirmPassword: "" });
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [saving, setSaving] = useState(false);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = checkNewPassword(form.newPassword, form.confirmPassword);
    if (problem) return setOutcome({ kind: "error", text: t(problem) });
    setOutcome(null);
    setSaving(true);
    try {
      await changePassword(target.id, { newPassword: form.newPassword });
      setForm({ newPassword: "", confirmPassword: "" });
      setOutcome({ kind: "success", text: t("users.resetPassword.success") });
    } catch (err) {
      setOutcome({ kind: "error", text: errorMessage(err, t("users.resetPassword.failed")) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card>
      <CardHeader title={t("users.resetPassword.title")} description={t("users.resetPassword.hint")} />
      <form onSubmit={submit} noValidate className="space-y-5 p-5 sm:p-6" data-testid="user-reset-password-form">
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label={t("profile.newPassword")}>
            {(id) => <TextInput id={id} name="newPassword" type="password" autoComplete="new-password" required value={form.newPassword} onChange={set("newPassword")} />}
          </Field>
          <Field label={t("profile.confirmNewPassword")}>
            {(id) => (
              <TextInput id={id} name="confirmPassword" type="password" autoComplete="new-password" required value={form.confirmPassword} onChange={set("confirmPassword")} />
            )}
          </Field>
        </div>
        {outcome && <FormMessage kind={outcome.kind}>{outcome.text}</FormMessage>}
        <div className="flex justify-end">
          <Button type="submit" variant="secondary" busy={saving} data-testid="user-reset-password-submit">
            {saving ? t("common.saving") : t("users.resetPassword.submit")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

export default function UserEdit() {
  useSignals();
  const { t } = useTranslation();
  useDocumentTitle(t("users.form.editTitle"));
  const { id } = useParams<{ id: string }>();
  const [target, setTarget] = useState<PublicUser | null>(null);
  const [error, setError] = useState("");

  useEffect(() => {
    let live = true;
    setTarget(null);
    setError("");
    getUser(Number(id))
      .then((reply) => live && setTarget(reply.user))
      .catch((err) => live && setError(errorMessage(err, t("users.fetchUserFailed"))));
    return () => {
      live = false;
    };
  }, [id, t]);

  const self = target !== null && target.id === sessionUser.value?.id;
  const saved = (u: PublicUser) => {
    setTarget(u);
    if (u.id === sessionUser.value?.id) setUser(u); // editing yourself updates the stored session user
  };

  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader
        title={target ? `${t("users.form.editTitle")}: ${target.username}` : t("users.form.editTitle")}
        actions={
          <ButtonLink href="/users" variant="secondary" data-testid="user-back">
            {t("users.form.backToList")}
          </ButtonLink>
        }
      />
      {error && (
        <p role="alert" data-testid="user-load-error" className="text-sm text-red-600">
          {error}
        </p>
      )}
      {!error && !target && <PageLoading />}
      {target && <EditForm key={target.id} target={target} onSaved={saved} />}
      {target && !self && <ResetPasswordForm key={`reset-${target.id}`} target={target} />}
      {target && !self && <TwoFactorReset target={target} onReset={setTarget} />}
      {target && self && (
        <p className="text-sm text-slate-500" data-testid="user-reset-password-self">
          {t("users.resetPassword.selfHint")}{" "}
          <Link href="/profile" className="font-medium text-indigo-600 hover:text-indigo-500">
            {t("nav.profile")}
          </Link>
        </p>
      )}
    </div>
  );
}
