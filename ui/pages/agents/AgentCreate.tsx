import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { createAgentToken, listAgents, type PublicAgent, type RegistrationToken } from "../../api/agents";
import { errorMessage } from "../../api/errors";
import { Button, ButtonLink, Spinner } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { CodeBlock, CopyButton } from "../../components/CodeBlock";
import { Field, SelectInput, TextInput } from "../../components/form";
import { usePolling } from "../../components/hooks";
import { CheckIcon, RefreshIcon } from "../../components/icons";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import {
  AGENT_TARGETS,
  INTERVAL_DEFAULT,
  INTERVAL_MAX,
  INTERVAL_MIN,
  installCommands,
  isLinux,
  parseInterval,
  type AgentTarget,
} from "./commands";
import { newAgents } from "./model";
import { AgentStatusBadge } from "./parts";

/** How often the page looks for the new agent. */
const WAIT_POLL_MS = 3_000;

type TokenState = { phase: "loading" } | { phase: "error"; message: string } | ({ phase: "ready" } & RegistrationToken);

/** A numbered step of the guide. */
function Step({ n, title, optional, description, children, testId }: { n: number | string; title: ReactNode; optional?: boolean; description?: ReactNode; children: ReactNode; testId?: string }) {
  const { t } = useTranslation();
  return (
    <li className="relative flex gap-4" data-testid={testId}>
      <span
        aria-hidden="true"
        className={`flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-semibold ${
          optional ? "bg-slate-100 text-slate-600 ring-1 ring-slate-300" : "bg-indigo-600 text-white"
        }`}
      >
        {n}
      </span>
      <div className="min-w-0 flex-1 space-y-3 pb-2">
        <div>
          <h3 className="flex flex-wrap items-center gap-2 pt-1 text-base font-semibold text-slate-900">
            {title}
            {optional && <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">{t("common.optional")}</span>}
          </h3>
          {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
        </div>
        {children}
      </div>
    </li>
  );
}

/** The one-time token: created when the page opens, shown once, with its expiry and a copy button. */
function TokenPanel({ state, onNew }: { state: TokenState; onNew: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Card className="p-5 sm:p-6" data-testid="agent-token-panel">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold text-slate-900">{t("agents.create.tokenTitle")}</h2>
          <p className="mt-0.5 text-sm text-slate-500">{t("agents.create.tokenHint")}</p>
        </div>
        <Button variant="secondary" size="sm" onClick={onNew} disabled={state.phase === "loading"} data-testid="agent-new-token">
          <RefreshIcon className="size-4" />
          {t("agents.create.newToken")}
        </Button>
      </div>
      <div className="mt-4">
        {state.phase === "loading" && (
          <p role="status" data-testid="agent-token-loading" className="flex items-center gap-2 text-sm text-slate-500">
            <Spinner className="size-4 text-indigo-500" />
            {t("agents.create.tokenCreating")}
          </p>
        )}
        {state.phase === "error" && (
          <div className="flex flex-wrap items-center gap-3">
            <p role="alert" data-testid="agent-token-error" className="text-sm text-red-600">
              {state.message}
            </p>
            <Button variant="secondary" size="sm" onClick={onNew}>
              {t("common.retry")}
            </Button>
          </div>
        )}
        {state.phase === "ready" && (
          <div className="space-y-2">
            <div className="flex items-center gap-3 rounded-lg bg-amber-50 p-3 pl-4 ring-1 ring-amber-200">
              <code data-testid="agent-token" className="min-w-0 flex-1 break-all font-mono text-sm text-slate-900">
                {state.token}
              </code>
              <CopyButton text={state.token} copiedMessage={t("agents.create.tokenCopied")} data-testid="agent-copy-token" />
            </div>
            <p className="text-xs text-slate-500" data-testid="agent-token-expiry">
              {t("agents.create.tokenExpires", {
                time: new Date(state.expiresAt).toLocaleString(i18n.language),
                hours: Math.max(1, Math.round((state.expiresAt - Date.now()) / 3_600_000)),
              })}
            </p>
            <p className="text-xs font-medium text-amber-700">{t("agents.create.tokenOnce")}</p>
          </div>
        )}
      </div>
    </Card>
  );
}

/** Polls the agent list until an agent that was not there when the page opened appears. */
function WaitingPanel() {
  const { t } = useTranslation();
  const known = useRef<Set<number> | null>(null);
  const [found, setFound] = useState<PublicAgent | null>(null);

  const check = useCallback(async () => {
    let agents: PublicAgent[];
    try {
      agents = (await listAgents()).agents ?? [];
    } catch {
      return; // next round
    }
    if (!known.current) {
      known.current = new Set(agents.map((a) => a.id));
      return;
    }
    const fresh = newAgents(known.current, agents);
    if (fresh.length) setFound(fresh[0]);
  }, []);

  useEffect(() => {
    void check();
  }, [check]);
  // Keep watching after it appears, until its first report makes it online.
  usePolling(check, WAIT_POLL_MS, found?.status !== "online");

  if (found) {
    return (
      <Card className="flex flex-wrap items-center gap-4 border-emerald-200 bg-emerald-50/60 p-5" data-testid="agent-connected">
        <span className="flex size-10 items-center justify-center rounded-full bg-emerald-100 text-emerald-700">
          <CheckIcon className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
            {t("agents.create.connected", { name: found.name })}
            <AgentStatusBadge status={found.status} />
          </p>
          <p className="text-sm text-slate-600">{t("agents.create.connectedHint")}</p>
        </div>
        <ButtonLink href={`/agents/${found.id}`} data-testid="agent-connected-link">
          {t("agents.create.viewAgent")}
        </ButtonLink>
      </Card>
    );
  }
  return (
    <Card className="flex items-center gap-4 border-dashed p-5" data-testid="agent-waiting">
      <span className="relative flex size-3">
        <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-indigo-400 opacity-75" />
        <span className="relative inline-flex size-3 rounded-full bg-indigo-500" />
      </span>
      <div>
        <p role="status" className="font-medium text-slate-900">
          {t("agents.create.waiting")}
        </p>
        <p className="text-sm text-slate-500">{t("agents.create.waitingHint", { seconds: WAIT_POLL_MS / 1000 })}</p>
      </div>
    </Card>
  );
}

export default function AgentCreate() {
  const { t } = useTranslation();
  useDocumentTitle(t("agents.createTitle"));
  const origin = window.location.origin;
  const [target, setTarget] = useState<AgentTarget>("linux-x64");
  const [intervalText, setIntervalText] = useState(String(INTERVAL_DEFAULT));
  const parsedInterval = parseInterval(intervalText);
  const interval = parsedInterval ?? INTERVAL_DEFAULT;

  // One token per visit. The request is kept in a ref so React's development double effect reuses it.
  const request = useRef<Promise<RegistrationToken> | null>(null);
  const [generation, setGeneration] = useState(0);
  const [token, setToken] = useState<TokenState>({ phase: "loading" });
  useEffect(() => {
    if (!request.current) request.current = createAgentToken();
    let live = true;
    setToken({ phase: "loading" });
    request.current.then(
      (reply) => live && setToken({ phase: "ready", token: reply.token, expiresAt: reply.expiresAt }),
      (err) => live && setToken({ phase: "error", message: errorMessage(err, t("agents.create.tokenFailed")) }),
    );
    return () => {
      live = false;
    };
  }, [generation, t]);
  const newToken = () => {
    request.current = null;
    setGeneration((g) => g + 1);
  };

  const commands = installCommands({ origin, target, token: token.phase === "ready" ? token.token : null, interval });

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader
        title={t("agents.createTitle")}
        description={t("agents.create.subtitle")}
        actions={
          <ButtonLink href="/agents" variant="secondary" data-testid="agent-back">
            {t("agents.backToList")}
          </ButtonLink>
        }
      />

      <Card className="p-5 sm:p-6">
        <div className="grid gap-5 sm:grid-cols-2">
          <div className="space-y-1.5 sm:col-span-2">
            <p className="text-sm font-medium text-slate-700">{t("agents.create.serverAddress")}</p>
            <div className="flex items-center gap-3 rounded-lg bg-slate-50 p-2 pl-3 ring-1 ring-slate-200">
              <code data-testid="agent-server-address" className="min-w-0 flex-1 break-all font-mono text-sm text-slate-900">
                {origin}
              </code>
              <CopyButton text={origin} data-testid="agent-copy-server" />
            </div>
            <p className="text-xs text-slate-500">{t("agents.create.serverAddressHint")}</p>
          </div>
          <Field label={t("agents.create.platform")} hint={t("agents.create.platformHint")}>
            {(id) => (
              <SelectInput id={id} name="target" value={target} onChange={(e) => setTarget(e.target.value as AgentTarget)} data-testid="agent-os-select">
                {AGENT_TARGETS.map((value) => (
                  <option key={value} value={value}>
                    {t(`agents.targets.${value}`)}
                  </option>
                ))}
              </SelectInput>
            )}
          </Field>
          <Field label={t("agents.create.interval")} hint={t("agents.create.intervalHint", { min: INTERVAL_MIN, max: INTERVAL_MAX })}>
            {(id) => (
              <>
                <TextInput
                  id={id}
                  name="interval"
                  type="number"
                  inputMode="numeric"
                  min={INTERVAL_MIN}
                  max={INTERVAL_MAX}
                  step={1}
                  value={intervalText}
                  onChange={(e) => setIntervalText(e.target.value)}
                  aria-invalid={parsedInterval === null ? true : undefined}
                  data-testid="agent-interval"
                />
                {parsedInterval === null && (
                  <p role="alert" data-testid="agent-interval-error" className="text-xs text-red-600">
                    {t("agents.create.intervalInvalid", { min: INTERVAL_MIN, max: INTERVAL_MAX, fallback: INTERVAL_DEFAULT })}
                  </p>
                )}
              </>
            )}
          </Field>
        </div>
      </Card>

      <TokenPanel state={token} onNew={newToken} />

      <Card className="p-5 sm:p-6">
        <ol className="space-y-8">
          <Step n={1} title={t("agents.create.step1Title")} description={t(isLinux(target) || target.startsWith("darwin") ? "agents.create.step1Hint" : "agents.create.step1HintWindows")} testId="agent-step-download">
            <CodeBlock code={commands.download} data-testid="agent-cmd-download" copyTestId="agent-copy-download" />
          </Step>
          <Step n={2} title={t("agents.create.step2Title")} description={t("agents.create.step2Hint")} testId="agent-step-register">
            <CodeBlock code={commands.register} data-testid="agent-cmd-register" copyTestId="agent-copy-register" />
            <p className="text-sm text-slate-600">{t("agents.create.step2RunHint", { seconds: interval })}</p>
            <CodeBlock code={commands.run} data-testid="agent-cmd-run" copyTestId="agent-copy-run" />
          </Step>
          <Step n={3} optional title={t("agents.create.step3Title")} description={t("agents.create.step3Hint")} testId="agent-step-install">
            <CodeBlock code={commands.install} data-testid="agent-cmd-install" copyTestId="agent-copy-install" />
            <p className="text-xs text-slate-500">{t("agents.create.step3Note")}</p>
          </Step>
        </ol>
      </Card>

      <WaitingPanel />
    </div>
  );
}
