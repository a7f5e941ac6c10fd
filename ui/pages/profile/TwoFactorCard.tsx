// /profile: two-factor sign-in. Off: set it up with the current password (a QR code and the secret, confirmed with a first code), then the ten
// recovery codes shown once. On: how many recovery codes are left, and turning it off with a code.
//
// data-testids: `two-factor-card` (data-enabled), `two-factor-required`, `two-factor-setup`, `two-factor-qr`,
//   `two-factor-password`, `two-factor-secret`, `two-factor-code`, `two-factor-enable`, `two-factor-recovery` (the codes, `recovery-code`),
//   `two-factor-done`, `two-factor-left`, `two-factor-off-code`, `two-factor-disable`, `two-factor-error`.
import { useCallback, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { me } from "../../api/auth";
import { errorMessage } from "../../api/errors";
import { disableTwoFactor, enableTwoFactor, getTwoFactor, setupTwoFactor, type TwoFactorState } from "../../api/twoFactor";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { CopyButton } from "../../components/CodeBlock";
import { Field, TextInput } from "../../components/form";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useLoad } from "../../components/useLoad";
import { setUser } from "../../state/session";

type Step = { kind: "idle" } | { kind: "setup"; secret: string; qrSvg: string } | { kind: "codes"; codes: string[] };

export function TwoFactorCard() {
  const { t } = useTranslation();
  const fetch = useCallback(() => getTwoFactor(), []);
  const { state, reload } = useLoad<TwoFactorState>(fetch, t("twoFactor.fetchFailed"));
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  /** The signed-in user's `twoFactor` flag follows (the password and token forms ask for a code with it on). */
  const refreshUser = async () => {
    try {
      setUser((await me()).user);
    } catch {
      // the next page load reads it again
    }
  };

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError("");
    try {
      await work();
    } catch (err) {
      setError(errorMessage(err, t("twoFactor.failed")));
    } finally {
      setBusy(false);
    }
  };

  const start = (event: FormEvent, passwordRequired: boolean) => {
    event.preventDefault();
    if (passwordRequired && !password) return setError(t("errors.CURRENT_PASSWORD_REQUIRED"));
    void run(async () => {
      const reply = await setupTwoFactor(password);
      setStep({ kind: "setup", secret: reply.secret, qrSvg: reply.qrSvg });
      setPassword("");
      setCode("");
    });
  };

  const enable = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setError(t("auth.twoFactor.codeRequired"));
    void run(async () => {
      const reply = await enableTwoFactor(code.trim());
      setStep({ kind: "codes", codes: reply.recoveryCodes });
      setCode("");
      toast.success(t("twoFactor.enabled"));
      await refreshUser();
    });
  };

  const disable = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setError(t("auth.twoFactor.codeRequired"));
    void run(async () => {
      await disableTwoFactor(code.trim());
      setCode("");
      toast.success(t("twoFactor.disabled"));
      await refreshUser();
      await reload(true);
    });
  };

  const finish = () => {
    setStep({ kind: "idle" });
    void reload(true);
  };

  return (
    <Card data-testid="two-factor-card" data-enabled={state.phase === "loaded" ? state.data.enabled : undefined}>
      <CardHeader title={t("twoFactor.title")} description={t("twoFactor.hint")} />
      <div className="space-y-4 p-5 sm:p-6">
        {state.phase === "loading" && <LoadingMessage data-testid="two-factor-loading">{t("common.loading")}</LoadingMessage>}
        {state.phase === "error" && <LoadError inline message={state.message} onRetry={() => void reload()} data-testid="two-factor-load-error" />}
        {state.phase === "loaded" && state.data.required && !state.data.enabled && step.kind !== "codes" && (
          <p data-testid="two-factor-required" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200">
            {t("twoFactor.required")}
          </p>
        )}
        {step.kind === "codes" ? (
          <div data-testid="two-factor-recovery" className="space-y-3">
            <p className="text-sm font-medium text-slate-800">{t("twoFactor.recoveryTitle")}</p>
            <p className="text-sm text-slate-600">{t("twoFactor.recoveryHint")}</p>
            <ul className="grid grid-cols-2 gap-1 rounded-lg bg-slate-50 p-3 font-mono text-sm ring-1 ring-slate-200">
              {step.codes.map((c) => (
                <li key={c} data-testid="recovery-code">
                  {c}
                </li>
              ))}
            </ul>
            <div className="flex flex-wrap gap-2">
              <CopyButton text={step.codes.join("\n")} copiedMessage={t("twoFactor.recoveryCopied")} data-testid="two-factor-recovery-copy" />
              <Button onClick={finish} data-testid="two-factor-done">
                {t("twoFactor.saved")}
              </Button>
            </div>
          </div>
        ) : state.phase === "loaded" && state.data.enabled ? (
          <form onSubmit={disable} noValidate className="space-y-4">
            <p className="text-sm text-emerald-700" data-testid="two-factor-left">
              {t("twoFactor.on", { count: state.data.recoveryCodesLeft })}
            </p>
            <Field label={t("auth.twoFactor.code")} hint={t("auth.twoFactor.codeHint")}>
              {(id) => <TextInput id={id} name="code" autoComplete="one-time-code" maxLength={32} value={code} onChange={(e) => setCode(e.target.value)} data-testid="two-factor-off-code" />}
            </Field>
            <Button type="submit" variant="dangerGhost" busy={busy} data-testid="two-factor-disable">
              {t("twoFactor.disable")}
            </Button>
          </form>
        ) : step.kind === "setup" ? (
          <form onSubmit={enable} noValidate className="space-y-4">
            <p className="text-sm text-slate-600">{t("twoFactor.scan")}</p>
            <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(step.qrSvg)}`} alt={t("twoFactor.qrAlt")} className="size-44 rounded bg-white p-1 ring-1 ring-slate-200" data-testid="two-factor-qr" />
            <p className="text-xs text-slate-500">{t("twoFactor.manual")}</p>
            <code data-testid="two-factor-secret" className="block break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-800">
              {step.secret}
            </code>
            <Field label={t("twoFactor.firstCode")}>
              {(id) => <TextInput id={id} name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={32} value={code} onChange={(e) => setCode(e.target.value)} data-testid="two-factor-code" />}
            </Field>
            <Button type="submit" busy={busy} data-testid="two-factor-enable">
              {t("twoFactor.enable")}
            </Button>
          </form>
        ) : (
          state.phase === "loaded" && (
            <form onSubmit={(e) => start(e, state.data.passwordRequired)} noValidate className="space-y-3">
              <p className="text-sm text-slate-600">{t("twoFactor.off")}</p>
              {state.data.passwordRequired && (
                <Field label={t("twoFactor.setupPassword")} hint={t("twoFactor.setupPasswordHint")}>
                  {(id) => <TextInput id={id} name="currentPassword" type="password" autoComplete="current-password" maxLength={1024} value={password} onChange={(e) => setPassword(e.target.value)} data-testid="two-factor-password" />}
                </Field>
              )}
              <Button type="submit" busy={busy} data-testid="two-factor-setup">
                {t("twoFactor.setup")}
              </Button>
            </form>
          )
        )}
        {error && (
          <p role="alert" data-testid="two-factor-error" className="text-sm text-red-600">
            {error}
          </p>
        )}
      </div>
    </Card>
  );
}
