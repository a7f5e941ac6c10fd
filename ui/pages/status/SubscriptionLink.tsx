// The pages the subscriber mails link to: /status/confirm?token=… (double opt-in) and /status/unsubscribe?token=…
// (also reachable with one click from the mail client, through List-Unsubscribe). Public, without navbar and footer.
//
// data-testids: `subscription-result` (data-state="ok" | "invalid"), `subscription-page-link`.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearch } from "wouter";
import { ApiError } from "../../api/client";
import { confirmSubscription, unsubscribe } from "../../api/subscribers";
import { LoadingMessage } from "../../components/LoadState";
import { LanguageSwitch } from "../../components/LanguageSwitch";

/** One call per token and mode, however often the effect runs (a token is spent by its first use). */
const calls = new Map<string, Promise<{ path: string; title: string } | null>>();
function once(mode: "confirm" | "unsubscribe", token: string) {
  const key = `${mode}:${token}`;
  let call = calls.get(key);
  if (!call) {
    call = mode === "confirm" ? confirmSubscription(token).then((r) => ({ path: r.page.path, title: r.page.title })) : unsubscribe(token).then(() => null);
    calls.set(key, call);
  }
  return call;
}

type Result = { phase: "working" } | { phase: "ok"; pagePath: string | null; pageTitle: string } | { phase: "invalid" } | { phase: "failed" };

export default function SubscriptionLink({ mode }: { mode: "confirm" | "unsubscribe" }) {
  const { t } = useTranslation();
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const [result, setResult] = useState<Result>({ phase: "working" });

  useEffect(() => {
    document.title = t(`statusPage.subscription.${mode}.title`);
    let live = true;
    const done = (r: Result) => {
      if (live) setResult(r);
    };
    if (!token) {
      done({ phase: "invalid" });
      return;
    }
    once(mode, token).then(
      (page) => done({ phase: "ok", pagePath: page?.path ?? null, pageTitle: page?.title ?? "" }),
      (err) => done(err instanceof ApiError && (err.status === 400 || err.status === 404) ? { phase: "invalid" } : { phase: "failed" }),
    );
    return () => {
      live = false;
    };
  }, [mode, token, t]);

  const key = `statusPage.subscription.${mode}` as const;
  return (
    <div className="min-h-screen bg-slate-50">
      <div className="mx-auto flex max-w-lg justify-end px-4 pt-4">
        <LanguageSwitch />
      </div>
      <main className="mx-auto max-w-lg px-4 py-10">
        {result.phase === "working" ? (
          <LoadingMessage data-testid="subscription-working">{t(`${key}.working`)}</LoadingMessage>
        ) : (
          <div data-testid="subscription-result" data-state={result.phase} className="rounded-xl border border-slate-200 bg-white px-6 py-10 text-center">
            <h1 className="text-lg font-semibold text-slate-900">
              {result.phase === "ok" ? t(`${key}.done`, { page: result.pageTitle || t("statusPage.title") }) : result.phase === "invalid" ? t(`${key}.invalid`) : t("statusPage.subscription.failed")}
            </h1>
            {result.phase === "ok" && <p className="mt-2 text-sm text-slate-600">{t(`${key}.hint`)}</p>}
            {result.phase === "ok" && result.pagePath && (
              <Link href={result.pagePath} className="mt-5 inline-block text-sm font-medium text-indigo-600 hover:text-indigo-500" data-testid="subscription-page-link">
                {t("statusPage.subscription.toPage")}
              </Link>
            )}
          </div>
        )}
      </main>
    </div>
  );
}
