// The pages the subscriber mails link to: /status/confirm?token=… (double opt-in) and /status/unsubscribe?token=…
// (mail clients also unsubscribe with one click, through List-Unsubscribe). Opening a link changes nothing, since mail
// scanners open links too: the page names the status page and the address (masked) and acts on its button only.
// Public, without navbar and footer.
//
// data-testids: `subscription-ask` (the page's name and address), `subscription-submit`, `subscription-result`
// (data-state="ok" | "invalid" | "failed"), `subscription-page-link`.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearch } from "wouter";
import { ApiError } from "../../api/client";
import { confirmSubscription, subscriptionLink, unsubscribe, type SubscriptionLinkInfo } from "../../api/subscribers";
import { Button } from "../../components/Button";
import { LoadingMessage } from "../../components/LoadState";
import { LanguageSwitch } from "../../components/LanguageSwitch";

type Phase = { phase: "loading" } | { phase: "ask" | "working" | "ok"; link: SubscriptionLinkInfo } | { phase: "invalid" } | { phase: "failed" };

/** A link that is unknown, used or expired answers 400/404; anything else is worth trying again. */
const ended = (err: unknown): Phase => (err instanceof ApiError && (err.status === 400 || err.status === 404) ? { phase: "invalid" } : { phase: "failed" });

export default function SubscriptionLink({ mode }: { mode: "confirm" | "unsubscribe" }) {
  const { t } = useTranslation();
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const [state, setState] = useState<Phase>({ phase: "loading" });

  useEffect(() => {
    document.title = t(`statusPage.subscription.${mode}.title`);
  }, [mode, t]);

  useEffect(() => {
    let live = true;
    const done = (p: Phase) => {
      if (live) setState(p);
    };
    if (!token) done({ phase: "invalid" });
    else subscriptionLink(mode, token).then((link) => done({ phase: "ask", link }), (err) => done(ended(err)));
    return () => {
      live = false;
    };
  }, [mode, token]);

  async function act(link: SubscriptionLinkInfo) {
    setState({ phase: "working", link });
    try {
      await (mode === "confirm" ? confirmSubscription(token) : unsubscribe(token));
      setState({ phase: "ok", link });
    } catch (err) {
      setState(ended(err));
    }
  }

  const key = `statusPage.subscription.${mode}` as const;
  const pageName = (link: SubscriptionLinkInfo) => link.page.title || t("statusPage.title");
  return (
    <div className="min-h-screen bg-slate-50">
      <div className="mx-auto flex max-w-lg justify-end px-4 pt-4">
        <LanguageSwitch />
      </div>
      <main className="mx-auto max-w-lg px-4 py-10">
        {state.phase === "loading" ? (
          <LoadingMessage data-testid="subscription-loading">{t("common.loading")}</LoadingMessage>
        ) : state.phase === "ask" || state.phase === "working" ? (
          <div data-testid="subscription-ask" className="rounded-xl border border-slate-200 bg-white px-6 py-10 text-center">
            <h1 className="text-lg font-semibold text-slate-900">{t(`${key}.ask`, { page: pageName(state.link) })}</h1>
            <p className="mt-2 text-sm text-slate-600">{t("statusPage.subscription.address", { email: state.link.email })}</p>
            <Button className="mt-6" busy={state.phase === "working"} onClick={() => void act(state.link)} data-testid="subscription-submit">
              {state.phase === "working" ? t(`${key}.working`) : t(`${key}.button`)}
            </Button>
          </div>
        ) : (
          <div data-testid="subscription-result" data-state={state.phase} className="rounded-xl border border-slate-200 bg-white px-6 py-10 text-center">
            <h1 className="text-lg font-semibold text-slate-900">
              {state.phase === "ok" ? t(`${key}.done`, { page: pageName(state.link) }) : state.phase === "invalid" ? t(`${key}.invalid`) : t("statusPage.subscription.failed")}
            </h1>
            {state.phase === "ok" && <p className="mt-2 text-sm text-slate-600">{t(`${key}.hint`)}</p>}
            {state.phase === "ok" && (
              <Link href={state.link.page.path} className="mt-5 inline-block text-sm font-medium text-indigo-600 hover:text-indigo-500" data-testid="subscription-page-link">
                {t("statusPage.subscription.toPage")}
              </Link>
            )}
          </div>
        )}
      </main>
    </div>
  );
}
