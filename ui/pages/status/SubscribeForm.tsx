// "Get updates by e-mail" on a public status page: shown when the page offers subscriptions. The reply is the same for
// every address (nobody learns who subscribed): the visitor is told to look for the confirmation mail.
//
// data-testids: `status-subscribe`, `status-subscribe-email`, `status-subscribe-submit`, `status-subscribe-done`,
//   `status-subscribe-error`.
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors";
import { EMAIL_MAX, subscribe, subscriptionsAvailable } from "../../api/subscribers";
import { Button } from "../../components/Button";
import { TextInput } from "../../components/form";
import { MailIcon } from "../../components/icons";

const looksLikeEmail = (s: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s);

export function SubscribeForm({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const [available, setAvailable] = useState(false);
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState("");

  useEffect(() => {
    let live = true;
    subscriptionsAvailable(slug).then((r) => live && setAvailable(r.available), () => live && setAvailable(false));
    return () => {
      live = false;
    };
  }, [slug]);
  if (!available) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = email.trim();
    if (!looksLikeEmail(value)) return setError(t("statusPage.subscribe.invalid"));
    setBusy(true);
    setError("");
    try {
      await subscribe(slug, value);
      setDone(true);
    } catch (err) {
      setError(errorMessage(err, t("statusPage.subscribe.failed")));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section data-testid="status-subscribe" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-5">
      <h2 className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <MailIcon className="size-4 text-slate-500" />
        {t("statusPage.subscribe.title")}
      </h2>
      {done ? (
        <p data-testid="status-subscribe-done" role="status" className="mt-2 text-sm text-emerald-700">
          {t("statusPage.subscribe.done", { email: email.trim() })}
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate className="mt-2">
          <p className="text-sm text-slate-600">{t("statusPage.subscribe.hint")}</p>
          <div className="mt-3 flex flex-col gap-2 sm:flex-row">
            <TextInput
              type="email"
              value={email}
              maxLength={EMAIL_MAX}
              autoComplete="email"
              onChange={(e) => setEmail(e.target.value)}
              placeholder={t("statusPage.subscribe.placeholder")}
              aria-label={t("statusPage.subscribe.email")}
              className="min-w-0 flex-1"
              data-testid="status-subscribe-email"
            />
            <Button type="submit" busy={busy} data-testid="status-subscribe-submit">
              {t("statusPage.subscribe.submit")}
            </Button>
          </div>
          {error && (
            <p role="alert" data-testid="status-subscribe-error" className="mt-2 text-sm text-red-600">
              {error}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
