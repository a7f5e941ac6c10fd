import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFormatDateTime } from "../../components/time";
import { toast } from "sonner";
import {
  createAgentToken,
  listAgents,
  listAgentTargets,
  listAgentTokens,
  revokeAgentToken,
  type AgentTarget,
  type PendingToken,
  type PublicAgent,
  type RegistrationToken,
} from "../../api/agents";
import { errorMessage } from "../../api/errors";
import { Button, ButtonLink, Spinner } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { CodeBlock, CopyButton } from "../../components/CodeBlock";
import { Field, SelectInput, TextInput } from "../../components/form";
import { formatBytes } from "../../components/format";
import { usePolling } from "../../components/hooks";
import { CheckIcon, PlusIcon } from "../../components/icons";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import {
  INTERVAL_DEFAULT,
  INTERVAL_MAX,
  INTERVAL_MIN,
  installCommands,
  isLoopbackUrl,
  parseInterval,
  sortTargets,
  targetId,
  TOKEN_PLACEHOLDER,
  type TargetId,
} from "./commands";
import { newAgents } from "./model";
import { DownloadStep } from "./DownloadStep";
import { AgentStatusBadge } from "./parts";
import { LoadError } from "../../components/LoadState";

/** How often the page looks for the new agent. */
const WAIT_POLL_MS = 3_000;

export type Loaded<T> = { phase: "loading" } | { phase: "error"; message: string } | { phase: "ready"; value: T };

/** The token created on this visit: its secret is in the create reply only. `id`: its row in the list, once known. */
type CreatedToken = RegistrationToken & { id?: number };

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

/**
 * Registration tokens: "Create token" mints one and shows its secret this once (the commands use it); below, the
 * unused tokens made earlier (their secret is gone), each revocable.
 */
function TokenPanel(props: {
  created: CreatedToken | null;
  creating: boolean;
  createError: string | null;
  onCreate: () => void;
  tokens: Loaded<PendingToken[]>;
  onReload: () => void;
  revokingId: number | null;
  onRevoke: (token: PendingToken) => void;
}) {
  const { created, creating, createError, onCreate, tokens, onReload, revokingId, onRevoke } = props;
  const { t } = useTranslation();
  const formatTime = useFormatDateTime();
  return (
    <Card className="p-5 sm:p-6" data-testid="agent-token-panel">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold text-slate-900">{t("agents.create.tokenTitle")}</h2>
          <p className="mt-0.5 text-sm text-slate-500">{t("agents.create.tokenHint")}</p>
        </div>
        <Button size="sm" onClick={onCreate} busy={creating} data-testid="agent-new-token">
          {!creating && <PlusIcon className="size-4" />}
          {creating ? t("agents.create.tokenCreating") : t("agents.create.newToken")}
        </Button>
      </div>

      <div className="mt-4 space-y-2">
        {createError && (
          <p role="alert" data-testid="agent-token-error" className="text-sm text-red-600">
            {createError}
          </p>
        )}
        {created ? (
          <>
            <div className="flex items-center gap-3 rounded-lg bg-amber-50 p-3 pl-4 ring-1 ring-amber-200">
              <code data-testid="agent-token" className="min-w-0 flex-1 break-all font-mono text-sm text-slate-900">
                {created.token}
              </code>
              <CopyButton text={created.token} copiedMessage={t("agents.create.tokenCopied")} data-testid="agent-copy-token" />
            </div>
            <p className="text-xs text-slate-500" data-testid="agent-token-expiry" title={formatTime.zoneOf(created.expiresAt)}>
              {t("agents.create.tokenExpires", {
                time: formatTime(created.expiresAt),
                hours: Math.max(1, Math.round((created.expiresAt - Date.now()) / 3_600_000)),
              })}
            </p>
            <p className="text-xs font-medium text-amber-700">{t("agents.create.tokenOnce")}</p>
          </>
        ) : (
          <p data-testid="agent-token-none" className="rounded-lg border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600">
            {t("agents.create.tokenNone")}
          </p>
        )}
      </div>

      <div className="mt-6 border-t border-slate-100 pt-4" data-testid="agent-tokens">
        <h3 className="text-sm font-semibold text-slate-900">{t("agents.create.tokensTitle")}</h3>
        <p className="mt-0.5 text-xs text-slate-500">{t("agents.create.tokensHint")}</p>
        {tokens.phase === "loading" && (
          <p role="status" data-testid="agent-tokens-loading" className="mt-3 flex items-center gap-2 text-sm text-slate-500">
            <Spinner className="size-4 text-indigo-500" />
            {t("agents.create.tokensLoading")}
          </p>
        )}
        {tokens.phase === "error" && (
          <LoadError inline className="mt-3" data-testid="agent-tokens-error" message={tokens.message} onRetry={onReload} />
        )}
        {tokens.phase === "ready" &&
          (tokens.value.length === 0 ? (
            <p data-testid="agent-tokens-empty" className="mt-3 text-sm text-slate-500">
              {t("agents.create.tokensEmpty")}
            </p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-100">
              {tokens.value.map((token) => (
                <li key={token.id} data-testid="agent-token-row" data-token-id={token.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
                  <div className="min-w-0 text-sm">
                    <p className="flex flex-wrap items-center gap-2 text-slate-900">
                      <span className="font-mono text-xs text-slate-400">#{token.id}</span>
                      <span title={formatTime.zoneOf(token.createdAt)}>{t("agents.create.tokenCreatedAt", { time: formatTime(token.createdAt) })}</span>
                      {created?.id === token.id && (
                        <span data-testid="agent-token-shown" className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">
                          {t("agents.create.tokenShown")}
                        </span>
                      )}
                    </p>
                    <p className="text-xs text-slate-500" title={formatTime.zoneOf(token.expiresAt)}>
                      {t("agents.create.tokenExpiresAt", { time: formatTime(token.expiresAt) })}
                    </p>
                  </div>
                  <Button
                    variant="dangerGhost"
                    size="sm"
                    busy={revokingId === token.id}
                    disabled={revokingId !== null}
                    onClick={() => onRevoke(token)}
                    aria-label={t("agents.create.tokenRevokeLabel", { time: formatTime(token.createdAt) })}
                    data-testid="agent-token-revoke"
                  >
                    {t("agents.create.tokenRevoke")}
                  </Button>
                </li>
              ))}
            </ul>
          ))}
      </div>
    </Card>
  );
}

/** Polls the agent list until an agent that was not there when the page opened appears. */
function WaitingPanel({ onFound }: { onFound: () => void }) {
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
  // Its token is spent now: the list of unused ones changes.
  const foundId = found?.id;
  useEffect(() => {
    if (foundId !== undefined) onFound();
  }, [foundId, onFound]);
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
  const loopback = isLoopbackUrl(origin);
  const [intervalText, setIntervalText] = useState(String(INTERVAL_DEFAULT));
  const parsedInterval = parseInterval(intervalText);
  const interval = parsedInterval ?? INTERVAL_DEFAULT;

  // The builds on offer, Linux x64 first; the choice defaults to the first one.
  const [targets, setTargets] = useState<Loaded<AgentTarget[]>>({ phase: "loading" });
  const [chosen, setChosen] = useState<TargetId | null>(null);
  const loadTargets = useCallback(async () => {
    setTargets({ phase: "loading" });
    try {
      setTargets({ phase: "ready", value: sortTargets((await listAgentTargets()).targets ?? []) });
    } catch (err) {
      setTargets({ phase: "error", message: errorMessage(err, t("agents.create.targetsFailed")) });
    }
  }, [t]);
  useEffect(() => {
    void loadTargets();
  }, [loadTargets]);
  const offered = targets.phase === "ready" ? targets.value : [];
  const target = offered.find((x) => targetId(x) === chosen) ?? offered[0] ?? null;

  // Unused tokens: listed, never minted just by opening the page.
  const [tokens, setTokens] = useState<Loaded<PendingToken[]>>({ phase: "loading" });
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const [revokingId, setRevokingId] = useState<number | null>(null);
  const known = useRef<PendingToken[]>([]);

  const loadTokens = useCallback(
    async (quiet = false): Promise<PendingToken[] | null> => {
      if (!quiet) setTokens({ phase: "loading" });
      try {
        const list = (await listAgentTokens()).tokens ?? [];
        known.current = list;
        setTokens({ phase: "ready", value: list });
        return list;
      } catch (err) {
        if (!quiet) setTokens({ phase: "error", message: errorMessage(err, t("agents.create.tokensFailed")) });
        return null;
      }
    },
    [t],
  );
  useEffect(() => {
    void loadTokens();
  }, [loadTokens]);

  const createToken = async () => {
    setCreating(true);
    setCreateError(null);
    const before = new Set(known.current.map((x) => x.id));
    try {
      const reply = await createAgentToken();
      setCreated({ token: reply.token, expiresAt: reply.expiresAt });
      // The reply has no id: the one row that was not there before is this token.
      const list = await loadTokens(true);
      const fresh = list?.filter((x) => !before.has(x.id)) ?? [];
      if (fresh.length === 1) setCreated((c) => (c?.token === reply.token ? { ...c, id: fresh[0].id } : c));
    } catch (err) {
      setCreateError(errorMessage(err, t("agents.create.tokenFailed")));
    } finally {
      setCreating(false);
    }
  };

  const revoke = async (token: PendingToken) => {
    setRevokingId(token.id);
    try {
      await revokeAgentToken(token.id);
      setTokens((s) => (s.phase === "ready" ? { ...s, value: s.value.filter((x) => x.id !== token.id) } : s));
      known.current = known.current.filter((x) => x.id !== token.id);
      setCreated((c) => (c?.id === token.id ? null : c)); // its commands no longer work
      toast.success(t("agents.create.tokenRevoked"));
    } catch (err) {
      toast.error(errorMessage(err, t("agents.create.tokenRevokeFailed")));
      void loadTokens(true); // used, expired or revoked meanwhile
    } finally {
      setRevokingId(null);
    }
  };

  const onAgentFound = useCallback(() => void loadTokens(true), [loadTokens]);
  const commands = useMemo(() => installCommands({ origin, target, token: created?.token ?? null, interval }), [origin, target, created, interval]);
  const windows = target?.os === "windows";

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
          <div className="min-w-0 space-y-1.5 sm:col-span-2">
            <p className="text-sm font-medium text-slate-700">{t("agents.create.serverAddress")}</p>
            <div className="flex items-center gap-3 rounded-lg bg-slate-50 p-2 pl-3 ring-1 ring-slate-200">
              <code data-testid="agent-server-address" className="min-w-0 flex-1 break-all font-mono text-sm text-slate-900">
                {origin}
              </code>
              <CopyButton text={origin} data-testid="agent-copy-server" />
            </div>
            <p className="text-xs text-slate-500">{t("agents.create.serverAddressHint")}</p>
            {loopback && (
              <div role="alert" data-testid="agent-loopback-warning" className="mt-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-300">
                <p className="font-semibold">{t("agents.create.loopbackTitle")}</p>
                <p className="mt-1 [overflow-wrap:anywhere]">{t("agents.create.loopbackWarning", { host: new URL(origin).hostname })}</p>
              </div>
            )}
          </div>
          {offered.length > 0 && target && (
            <Field label={t("agents.create.platform")} hint={t("agents.create.platformHint")}>
              {(id) => (
                <SelectInput id={id} name="target" value={targetId(target)} onChange={(e) => setChosen(e.target.value as TargetId)} data-testid="agent-os-select">
                  {offered.map((x) => (
                    <option key={x.file} value={targetId(x)}>
                      {t(`agents.targets.${targetId(x)}`)} · {formatBytes(x.bytes)}
                    </option>
                  ))}
                </SelectInput>
              )}
            </Field>
          )}
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

      <TokenPanel
        created={created}
        creating={creating}
        createError={createError}
        onCreate={() => void createToken()}
        tokens={tokens}
        onReload={() => void loadTokens()}
        revokingId={revokingId}
        onRevoke={(token) => void revoke(token)}
      />

      <Card className="p-5 sm:p-6">
        <ol className="space-y-8">
          <Step n={1} title={t("agents.create.step1Title")} description={t(windows ? "agents.create.step1HintWindows" : "agents.create.step1Hint")} testId="agent-step-download">
            <DownloadStep targets={targets} target={target} commands={commands} onRetry={() => void loadTargets()} />
          </Step>
          <Step n={2} title={t("agents.create.step2Title")} description={t("agents.create.step2Hint")} testId="agent-step-register">
            {!created && (
              <p data-testid="agent-token-placeholder-hint" className="text-sm font-medium text-amber-700">
                {t("agents.create.tokenPlaceholderHint", { placeholder: TOKEN_PLACEHOLDER })}
              </p>
            )}
            <CodeBlock code={commands.register} data-testid="agent-cmd-register" copyTestId="agent-copy-register" />
            <p className="text-sm text-slate-600">{t("agents.create.step2RunHint", { seconds: interval })}</p>
            <CodeBlock code={commands.run} data-testid="agent-cmd-run" copyTestId="agent-copy-run" />
          </Step>
          {target?.os === "linux" && (
            <Step n={3} optional title={t("agents.create.step3Title")} description={t("agents.create.step3Hint")} testId="agent-step-install">
              <CodeBlock code={commands.install} data-testid="agent-cmd-install" copyTestId="agent-copy-install" />
              <p className="text-xs text-slate-500">{t("agents.create.step3Note")}</p>
            </Step>
          )}
        </ol>
      </Card>

      <WaitingPanel onFound={onAgentFound} />
    </div>
  );
}
