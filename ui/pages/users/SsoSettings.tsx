// Admin (on /users): single sign-on through an OpenID Connect provider — the provider, who gets in and as what, the
// redirect URI to register there, a discovery test, and whether passwords still sign in. Set by the server's flags
// (--oidc-*), the provider is shown read-only and only the password switch remains.
//
// data-testids: `sso-settings`, `sso-enabled`, `sso-redirect-uri`, `sso-test`, `sso-save`, `sso-password-login`,
// `sso-flags`.
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { getSsoSettings, saveSsoSettings, testSsoProvider, type SsoSettingsReply } from "../../api/sso";
import type { Role } from "../../api/users";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { CopyButton } from "../../components/CodeBlock";
import { Field, FormMessage, SelectInput, TextInput, Toggle } from "../../components/form";
import { RoleOptions } from "../../components/RoleBadge";
import { loadSiteConfig } from "../../state/config";

type Form = Omit<SsoSettingsReply["settings"], "clientSecretSet" | "adminGroups" | "editorGroups" | "viewerGroups"> & {
  clientSecret: string;
  adminGroups: string;
  editorGroups: string;
  viewerGroups: string;
};

const toForm = (s: SsoSettingsReply["settings"]): Form => {
  const { clientSecretSet: _, ...rest } = s;
  return { ...rest, clientSecret: "", adminGroups: s.adminGroups.join(", "), editorGroups: s.editorGroups.join(", "), viewerGroups: s.viewerGroups.join(", ") };
};
const groups = (text: string) => text.split(",").map((g) => g.trim()).filter(Boolean);

export function SsoSettings() {
  const { t } = useTranslation();
  const [reply, setReply] = useState<SsoSettingsReply | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [busy, setBusy] = useState<"save" | "test" | null>(null);
  const [error, setError] = useState("");
  const [tested, setTested] = useState("");

  const loaded = (r: SsoSettingsReply) => {
    setReply(r);
    setForm(toForm(r.settings));
  };
  useEffect(() => {
    let live = true;
    getSsoSettings().then((r) => live && loaded(r), (err) => live && setError(errorMessage(err, t("sso.fetchFailed"))));
    return () => {
      live = false;
    };
  }, [t]);
  if (!reply || !form) return error ? <FormMessage kind="error">{error}</FormMessage> : null;

  const byFlags = reply.source === "flags";
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm({ ...form, [key]: value });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy("save");
    setError("");
    try {
      const { clientSecret, adminGroups, editorGroups, viewerGroups, ...rest } = form;
      const r = byFlags
        ? await saveSsoSettings({ passwordLogin: form.passwordLogin })
        : await saveSsoSettings({ ...rest, ...(clientSecret ? { clientSecret } : {}), adminGroups: groups(adminGroups), editorGroups: groups(editorGroups), viewerGroups: groups(viewerGroups) });
      loaded(r);
      toast.success(t("sso.saved"));
      void loadSiteConfig(); // the sign-in page follows
    } catch (err) {
      setError(errorMessage(err, t("sso.saveFailed")));
    } finally {
      setBusy(null);
    }
  };

  const test = async () => {
    setBusy("test");
    setError("");
    setTested("");
    try {
      const { provider } = await testSsoProvider({ issuer: form.issuer, clientId: form.clientId || "vigil", ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}) });
      setTested(t(provider.pkce === false ? "sso.testedNoPkce" : "sso.tested", { issuer: provider.issuer }));
    } catch (err) {
      setError(errorMessage(err, t("sso.testFailed")));
    } finally {
      setBusy(null);
    }
  };

  const input = (key: "name" | "issuer" | "clientId" | "scopes" | "groupsClaim" | "adminGroups" | "editorGroups" | "viewerGroups", label: string, hint?: string, placeholder?: string) => (
    <Field label={label} hint={hint}>
      {(id) => <TextInput id={id} name={key} value={form[key]} placeholder={placeholder} disabled={byFlags} onChange={(e) => set(key, e.target.value)} data-testid={`sso-${key}`} />}
    </Field>
  );

  return (
    <Card className="mb-6" data-testid="sso-settings">
      <CardHeader title={t("sso.title")} description={t("sso.description")} />
      <form onSubmit={save} noValidate className="space-y-4 px-5 py-5 sm:px-6">
        {byFlags && <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600" data-testid="sso-flags">{t("sso.byFlags")}</p>}
        <Toggle name="ssoEnabled" label={t("sso.enabled")} hint={t("sso.enabledHint")} checked={form.enabled} disabled={byFlags} onChange={(v) => set("enabled", v)} data-testid="sso-enabled" />
        <div>
          <p className="text-sm font-medium text-slate-700">{t("sso.redirectUri")}</p>
          <p className="mt-1 flex items-center gap-2">
            <code className="min-w-0 break-all rounded bg-slate-100 px-2 py-1 text-xs text-slate-800" data-testid="sso-redirect-uri">{reply.redirectUri}</code>
            <CopyButton text={reply.redirectUri} />
          </p>
          <p className="mt-1 text-xs text-slate-500">{t("sso.redirectUriHint")}</p>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          {input("name", t("sso.name"), t("sso.nameHint"))}
          {input("issuer", t("sso.issuer"), t("sso.issuerHint"), "https://auth.example.com/realms/main")}
          {input("clientId", t("sso.clientId"))}
          <Field label={t("sso.clientSecret")} hint={reply.settings.clientSecretSet ? t("sso.clientSecretKept") : t("sso.clientSecretHint")}>
            {(id) => (
              <TextInput id={id} name="clientSecret" type="password" autoComplete="off" value={form.clientSecret} placeholder={reply.settings.clientSecretSet ? "••••••••" : ""} disabled={byFlags} onChange={(e) => set("clientSecret", e.target.value)} data-testid="sso-clientSecret" />
            )}
          </Field>
          {input("scopes", t("sso.scopes"), t("sso.scopesHint"))}
          <Field label={t("sso.defaultRole")} hint={t("sso.defaultRoleHint")}>
            {(id) => (
              <SelectInput id={id} name="defaultRole" value={form.defaultRole} disabled={byFlags} onChange={(e) => set("defaultRole", e.target.value as Role)} data-testid="sso-defaultRole">
                <RoleOptions />
              </SelectInput>
            )}
          </Field>
        </div>
        <Toggle name="ssoCreateAccounts" label={t("sso.createAccounts")} hint={t("sso.createAccountsHint")} checked={form.createAccounts} disabled={byFlags} onChange={(v) => set("createAccounts", v)} data-testid="sso-createAccounts" />
        <div className="grid gap-4 sm:grid-cols-2">
          {input("groupsClaim", t("sso.groupsClaim"), t("sso.groupsClaimHint"))}
          {input("adminGroups", t("sso.adminGroups"), t("sso.groupsHint"))}
          {input("editorGroups", t("sso.editorGroups"), t("sso.groupsHint"))}
          {input("viewerGroups", t("sso.viewerGroups"), t("sso.groupsHint"))}
        </div>
        <Toggle
          name="passwordLogin"
          label={t("sso.passwordLogin")}
          hint={reply.passwordLoginForced ? t("sso.passwordLoginForced") : t("sso.passwordLoginHint")}
          checked={form.passwordLogin}
          disabled={reply.passwordLoginForced}
          onChange={(v) => set("passwordLogin", v)}
          data-testid="sso-password-login"
        />
        {tested && <FormMessage kind="success">{tested}</FormMessage>}
        <FormMessage kind="error">{error}</FormMessage>
        <div className="flex flex-wrap justify-end gap-3">
          {!byFlags && (
            <Button variant="secondary" busy={busy === "test"} disabled={busy !== null || !form.issuer} onClick={() => void test()} data-testid="sso-test">
              {t("sso.test")}
            </Button>
          )}
          <Button type="submit" busy={busy === "save"} disabled={busy !== null} data-testid="sso-save">
            {t("sso.save")}
          </Button>
        </div>
      </form>
    </Card>
  );
}
