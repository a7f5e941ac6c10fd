// Admin: the instance's two-factor policy (on /users) and resetting one user's second factor (on their edit page).
//
// data-testids: `two-factor-policy` (the toggle), `two-factor-reset`.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { getTwoFactor, resetTwoFactor, setTwoFactorRequired } from "../../api/twoFactor";
import type { PublicUser } from "../../api/users";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { Toggle } from "../../components/form";

export function TwoFactorPolicy() {
  const { t } = useTranslation();
  const [required, setRequired] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    let live = true;
    getTwoFactor().then((s) => live && setRequired(s.required), () => {});
    return () => {
      live = false;
    };
  }, []);
  if (required === null) return null;
  const change = async (next: boolean) => {
    setRequired(next);
    setSaving(true);
    try {
      setRequired((await setTwoFactorRequired(next)).required);
      toast.success(t("twoFactor.requireSaved"));
    } catch (err) {
      setRequired(!next);
      toast.error(errorMessage(err, t("twoFactor.failed")));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card className="mb-6 px-4 py-4 sm:px-5">
      <Toggle name="twoFactorRequired" label={t("twoFactor.require")} hint={t("twoFactor.requireHint")} checked={required} disabled={saving} onChange={(v) => void change(v)} data-testid="two-factor-policy" />
    </Card>
  );
}

/** Shown for a user with two-factor on: a lost phone is reset here. */
export function TwoFactorReset({ target, onReset }: { target: PublicUser; onReset: (user: PublicUser) => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  if (!target.twoFactor) return null;
  const reset = async () => {
    setBusy(true);
    try {
      await resetTwoFactor(target.id);
      onReset({ ...target, twoFactor: false });
      toast.success(t("twoFactor.resetDone"));
    } catch (err) {
      toast.error(errorMessage(err, t("twoFactor.failed")));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="flex flex-wrap items-center justify-between gap-3 px-5 py-4 sm:px-6">
      <p className="text-sm text-slate-700">{t("twoFactor.enabled")}</p>
      <Button variant="dangerGhost" busy={busy} onClick={() => void reset()} data-testid="two-factor-reset">
        {t("twoFactor.reset")}
      </Button>
    </Card>
  );
}
