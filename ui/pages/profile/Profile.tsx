import { useSignals } from "@preact/signals-react/runtime";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Time } from "../../components/time";
import { errorMessage } from "../../api/errors";
import { changePassword, updateUser, type PublicUser } from "../../api/users";
import { Button } from "../../components/Button";
import { Card, CardHeader, PageHeader } from "../../components/Card";
import { Field, FormMessage, TextInput } from "../../components/form";
import { RoleBadge } from "../../components/RoleBadge";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { checkEmail, checkNewPassword, checkUsername, firstProblem, optionalEmail } from "../../components/validation";
import { setToken, setUser, user } from "../../state/session";
import { ApiTokensCard } from "./ApiTokens";
import { ContactChannelsCard, MyQuietHoursCard } from "./ContactChannels";
import { DevicesCard } from "./DevicesCard";
import { TwoFactorCard } from "./TwoFactorCard";

type Outcome = { kind: "error" | "success"; text: string } | null;

function Outcome({ outcome }: { outcome: Outcome }) {
  return outcome ? <FormMessage kind={outcome.kind}>{outcome.text}</FormMessage> : null;
}

/** Username (required) and email (optional, left out of the payload when empty). */
function BasicInfoForm({ current }: { current: PublicUser }) {
  const { t } = useTranslation();
  const [username, setUsername] = useState(current.username);
  const [email, setEmail] = useState(current.email ?? "");
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = firstProblem(checkUsername(username), checkEmail(email));
    if (problem) return setOutcome({ kind: "error", text: t(problem) });
    setOutcome(null);
    setSaving(true);
    try {
      const reply = await updateUser(current.id, { username: username.trim(), ...optionalEmail(email) });
      if (reply.user) setUser(reply.user);
      setOutcome({ kind: "success", text: t("profile.updated") });
    } catch (err) {
      setOutcome({ kind: "error", text: errorMessage(err, t("profile.updateFailed")) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card>
      <CardHeader title={t("profile.basicInfo")} description={t("profile.basicInfoHint")} />
      <form onSubmit={submit} noValidate className="space-y-5 p-5 sm:p-6" data-testid="profile-form">
        <dl className="flex flex-wrap gap-x-8 gap-y-2 text-sm">
          <div className="flex items-center gap-2">
            <dt className="text-slate-500">{t("profile.role")}</dt>
            <dd>
              <RoleBadge role={current.role} />
            </dd>
          </div>
          <div className="flex items-center gap-2">
            <dt className="text-slate-500">{t("profile.memberSince")}</dt>
            <dd className="text-slate-700"><Time at={current.createdAt} style="date" /></dd>
          </div>
        </dl>
        <Field label={t("auth.username")}>
          {(id) => <TextInput id={id} name="username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />}
        </Field>
        <Field label={t("auth.email")} optionalLabel={t("common.optional")} hint={t("profile.emailHint")}>
          {(id) => <TextInput id={id} name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Outcome outcome={outcome} />
        <div className="flex justify-end">
          <Button type="submit" busy={saving} data-testid="profile-submit">
            {saving ? t("common.saving") : t("common.save")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Current, new and confirm: all required; a mismatch is shown and nothing is sent. The fresh token is kept. */
function PasswordForm({ userId, twoFactor }: { userId: number; twoFactor: boolean }) {
  const { t } = useTranslation();
  const empty = { currentPassword: "", newPassword: "", confirmPassword: "", code: "" };
  const [form, setForm] = useState(empty);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [saving, setSaving] = useState(false);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = firstProblem(
      form.currentPassword ? null : "validation.currentPasswordRequired",
      form.newPassword ? null : "validation.newPasswordRequired",
      form.confirmPassword ? null : "validation.confirmPasswordRequired",
      checkNewPassword(form.newPassword, form.confirmPassword),
      twoFactor && !form.code.trim() ? "auth.twoFactor.codeRequired" : null,
    );
    if (problem) return setOutcome({ kind: "error", text: t(problem) });
    setOutcome(null);
    setSaving(true);
    try {
      const reply = await changePassword(userId, { currentPassword: form.currentPassword, newPassword: form.newPassword, ...(twoFactor ? { code: form.code.trim() } : {}) });
      if (reply.token) setToken(reply.token);
      setForm(empty);
      setOutcome({ kind: "success", text: t("profile.passwordChanged") });
    } catch (err) {
      setOutcome({ kind: "error", text: errorMessage(err, t("profile.changePasswordFailed")) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card>
      <CardHeader title={t("profile.changePassword")} description={t("profile.changePasswordHint")} />
      <form onSubmit={submit} noValidate className="space-y-5 p-5 sm:p-6" data-testid="password-form">
        <Field label={t("profile.currentPassword")}>
          {(id) => (
            <TextInput id={id} name="currentPassword" type="password" autoComplete="current-password" required value={form.currentPassword} onChange={set("currentPassword")} />
          )}
        </Field>
        <Field label={t("profile.newPassword")}>
          {(id) => <TextInput id={id} name="newPassword" type="password" autoComplete="new-password" required value={form.newPassword} onChange={set("newPassword")} />}
        </Field>
        <Field label={t("profile.confirmNewPassword")}>
          {(id) => (
            <TextInput id={id} name="confirmPassword" type="password" autoComplete="new-password" required value={form.confirmPassword} onChange={set("confirmPassword")} />
          )}
        </Field>
        {twoFactor && (
          <Field label={t("auth.twoFactor.code")} hint={t("auth.twoFactor.codeHint")}>
            {(id) => <TextInput id={id} name="code" autoComplete="one-time-code" maxLength={32} value={form.code} onChange={set("code")} data-testid="password-code" />}
          </Field>
        )}
        <Outcome outcome={outcome} />
        <div className="flex justify-end">
          <Button type="submit" busy={saving} data-testid="password-submit">
            {saving ? t("common.saving") : t("profile.changePassword")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

export default function Profile() {
  useSignals();
  const { t } = useTranslation();
  useDocumentTitle(t("profile.title"));
  const current = user.value;
  if (!current) return <FormMessage kind="error">{t("profile.notLoggedIn")}</FormMessage>;
  return (
    <div>
      <PageHeader title={t("profile.title")} />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <BasicInfoForm key={current.id} current={current} />
        <PasswordForm userId={current.id} twoFactor={current.twoFactor} />
        <TwoFactorCard />
        <DevicesCard key={`devices-${current.id}`} />
        <ApiTokensCard key={current.id} twoFactor={current.twoFactor} />
        {/* Below the tokens: a link to #api-tokens scrolls there before these load, and they must not push it away. */}
        <ContactChannelsCard key={`contacts-${current.id}`} />
        <MyQuietHoursCard key={`quiet-${current.id}`} />
      </div>
    </div>
  );
}
