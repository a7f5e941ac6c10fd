// The page an alert's acknowledgement link opens: /ack/<token>. Public, without navbar and footer, and no sign-in: the
// signed link is the credential for this one problem. Opening it changes nothing — mail scanners and chat previews
// open links too — so it names the problem and acknowledges on its button only.
//
// data-testids: `ack-link-loading`, `ack-link-ask` (the problem), `ack-link-target`, `ack-link-condition`,
// `ack-link-channel`, `ack-link-submit`, `ack-link-result` (data-state="done" | "already" | "invalid" | "expired" |
// "resolved" | "failed"), `ack-link-open`.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "wouter";
import { ApiError } from "../../api/client";
import { ackLinkInfo, acknowledgeByLink, type AckLinkInfo, type Problem } from "../../api/problems";
import { Button } from "../../components/Button";
import { LanguageSwitch } from "../../components/LanguageSwitch";
import { LoadingMessage } from "../../components/LoadState";
import { STYLE_OPTIONS, Time } from "../../components/time";
import { AckText, ConditionLabel } from "./parts";

type Ended = "invalid" | "expired" | "resolved" | "failed";
type Phase =
  | { phase: "loading" }
  | { phase: "ask" | "working"; info: AckLinkInfo }
  | { phase: "done" | "already"; info: AckLinkInfo; problem: Problem }
  | { phase: Ended; info?: AckLinkInfo };

/** What a refusal means for the page: a bad or expired link, a problem gone, someone quicker, or try again. */
function refusal(err: unknown, info?: AckLinkInfo): Phase {
  if (err instanceof ApiError) {
    const theirs = err.body.problem as Problem | undefined;
    if (err.code === "ALREADY_ACKNOWLEDGED" && info && theirs) return { phase: "already", info, problem: theirs };
    if (err.code === "ACK_LINK_EXPIRED") return { phase: "expired" };
    if (err.code === "PROBLEM_RESOLVED") return { phase: "resolved", info };
    if (err.status === 400) return { phase: "invalid" };
  }
  return { phase: "failed", info };
}

export default function AckLink() {
  const { t, i18n } = useTranslation();
  const { token = "" } = useParams<{ token: string }>();
  const [state, setState] = useState<Phase>({ phase: "loading" });

  useEffect(() => {
    document.title = t("problems.link.title");
  }, [t]);

  const load = () => {
    setState({ phase: "loading" });
    ackLinkInfo(token).then(
      (info) => setState(info.problem.ack ? { phase: "already", info, problem: info.problem } : { phase: "ask", info }),
      (err) => setState(refusal(err)),
    );
  };
  useEffect(load, [token]);

  async function act(info: AckLinkInfo) {
    setState({ phase: "working", info });
    try {
      const { problem } = await acknowledgeByLink(token);
      setState({ phase: "done", info, problem });
    } catch (err) {
      setState(refusal(err, info));
    }
  }

  const box = "rounded-xl border border-slate-200 bg-white px-6 py-8 text-center";
  return (
    <div className="min-h-screen bg-slate-50">
      <div className="mx-auto flex max-w-lg justify-end px-4 pt-4">
        <LanguageSwitch />
      </div>
      <main className="mx-auto max-w-lg px-4 py-8">
        {state.phase === "loading" ? (
          <LoadingMessage data-testid="ack-link-loading">{t("common.loading")}</LoadingMessage>
        ) : state.phase === "ask" || state.phase === "working" ? (
          <div data-testid="ack-link-ask" className={box}>
            <h1 className="text-lg font-semibold text-slate-900">{t("problems.link.ask")}</h1>
            <ProblemFacts info={state.info} />
            <p className="mt-4 text-sm text-slate-600">{t("problems.link.hint")}</p>
            <p className="mt-1 text-xs text-slate-500">{t("problems.link.expires", { time: new Intl.DateTimeFormat(i18n.language, STYLE_OPTIONS.datetime).format(state.info.expiresAt) })}</p>
            <Button className="mt-6 w-full sm:w-auto" busy={state.phase === "working"} onClick={() => void act(state.info)} data-testid="ack-link-submit">
              {state.phase === "working" ? t("problems.link.working") : t("problems.link.button")}
            </Button>
          </div>
        ) : (
          <div data-testid="ack-link-result" data-state={state.phase} className={box}>
            <h1 className="text-lg font-semibold text-slate-900">{t(`problems.link.${state.phase}`)}</h1>
            {state.info && <ProblemFacts info={state.info} />}
            {(state.phase === "done" || state.phase === "already") && state.problem.ack && (
              <p className="mt-4">
                <AckText ack={state.problem.ack} />
              </p>
            )}
            {state.phase === "done" && <p className="mt-2 text-sm text-slate-600">{t("problems.link.doneHint")}</p>}
            {(state.phase === "invalid" || state.phase === "expired" || state.phase === "resolved") && (
              <p className="mt-2 text-sm text-slate-600">{t(`problems.link.${state.phase}Hint`)}</p>
            )}
            {state.phase === "failed" ? (
              <Button variant="secondary" className="mt-5" onClick={load} data-testid="ack-link-retry">
                {t("problems.link.retry")}
              </Button>
            ) : (
              state.info && (
                <Link href={targetPath(state.info.problem)} className="mt-5 inline-block text-sm font-medium text-indigo-600 hover:text-indigo-500" data-testid="ack-link-open">
                  {t("problems.link.open")}
                </Link>
              )
            )}
          </div>
        )}
      </main>
    </div>
  );
}

const targetPath = (p: Problem) => `/${p.targetType === "monitor" ? "monitors" : "agents"}/${p.targetId}`;

/** The problem a link names: its target, condition and since when, and the channel the alert came through. */
function ProblemFacts({ info }: { info: AckLinkInfo }) {
  const { t } = useTranslation();
  const p = info.problem;
  return (
    <dl className="mt-4 space-y-1 text-sm">
      <div data-testid="ack-link-target" className="flex flex-wrap justify-center gap-x-2">
        <dt className="text-slate-500">{t(`problems.link.${p.targetType}`)}</dt>
        <dd className="break-all font-medium text-slate-900">{p.targetName}</dd>
      </div>
      <div className="flex flex-wrap justify-center gap-x-2">
        <dt data-testid="ack-link-condition" className="font-medium text-red-700">
          <ConditionLabel condition={p.condition} />
        </dt>
        <dd className="text-slate-500">
          <Time at={p.since} />
        </dd>
      </div>
      {info.channel !== null && (
        <div data-testid="ack-link-channel" className="text-xs text-slate-500">
          <dd>{t("problems.link.channel", { channel: info.channel })}</dd>
        </div>
      )}
    </dl>
  );
}
