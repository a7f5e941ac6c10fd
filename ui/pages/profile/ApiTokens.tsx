import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import {
  createToken,
  DEFAULT_TOKEN_SCOPE,
  listTokens,
  revokeToken,
  TOKEN_EXPIRY_CHOICES,
  TOKEN_NAME_MAX,
  TOKEN_SCOPES,
  type PublicApiToken,
  type TokenExpiryChoice,
  type TokenScope,
} from "../../api/tokens";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { CopyButton } from "../../components/CodeBlock";
import { Field, SelectInput, TextInput } from "../../components/form";
import { PlusIcon } from "../../components/icons";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { Ago, useFormatDateTime } from "../../components/time";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useLoad } from "../../components/useLoad";
import { API_TOKENS_SECTION } from "../../components/UserMenu";
import { canEdit } from "../../state/session";

const fetchTokens = async () => (await listTokens()).tokens ?? [];

/** A token just created: its secret is in this reply only (the server keeps a hash), so it is shown until dismissed. */
type Created = { token: PublicApiToken; secret: string };

const expiryKey = (days: TokenExpiryChoice) => (days === null ? "never" : (String(days) as `${NonNullable<TokenExpiryChoice>}`));

/** Read-only is calm; the wider scopes say so by colour. */
const SCOPE_BADGE: Record<TokenScope, string> = {
  read: "bg-slate-100 text-slate-700 ring-slate-500/20",
  write: "bg-indigo-50 text-indigo-700 ring-indigo-600/20",
  full: "bg-amber-50 text-amber-800 ring-amber-600/30",
};

/**
 * The signed-in user's API tokens: for scripts that call the REST API as this user. Create (the secret is shown
 * once), see when each was last used and when it expires, revoke.
 */
export function ApiTokensCard({ twoFactor = false }: { twoFactor?: boolean }) {
  const { t } = useTranslation();
  const formatTime = useFormatDateTime();
  const { state, reload: load, update } = useLoad<PublicApiToken[]>(fetchTokens, t("tokens.fetchFailed"));
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [days, setDays] = useState<TokenExpiryChoice>(90);
  const [scope, setScope] = useState<TokenScope>(DEFAULT_TOKEN_SCOPE);
  const [creating, setCreating] = useState(false);
  const [code, setCode] = useState("");
  const [created, setCreated] = useState<Created | null>(null);

  const revoke = useDeleteConfirmation<PublicApiToken>({
    section: "tokens",
    message: (token) => t("tokens.confirmDelete.message", { name: token.name, prefix: token.prefix }),
    remove: revokeToken,
    onDeleted: (id) => {
      update((tokens) => tokens.filter((token) => token.id !== id));
      setCreated((c) => (c?.token.id === id ? null : c));
    },
  });

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const problem = !trimmed ? t("tokens.nameRequired") : trimmed.length > TOKEN_NAME_MAX ? t("tokens.nameTooLong", { max: TOKEN_NAME_MAX }) : null;
    setNameError(problem);
    if (problem) return;
    setCreating(true);
    try {
      const reply = await createToken({ name: trimmed, expiresInDays: days, scope, ...(twoFactor ? { code: code.trim() } : {}) });
      setCode("");
      setCreated({ token: reply.token, secret: reply.secret });
      update((tokens) => [...tokens, reply.token]);
      setName("");
      setScope(DEFAULT_TOKEN_SCOPE); // a wider scope is chosen each time, never carried over
      toast.success(t("tokens.created"));
    } catch (err) {
      toast.error(errorMessage(err, t("tokens.createFailed")));
    } finally {
      setCreating(false);
    }
  };

  return (
    <Card id={API_TOKENS_SECTION} className="scroll-mt-20 lg:col-span-2" data-testid="tokens-card">
      <CardHeader title={t("tokens.title")} description={t("tokens.subtitle")} />
      <div className="space-y-5 px-5 py-5 sm:px-6">
        <form onSubmit={create} noValidate data-testid="token-form" className="grid gap-3 sm:grid-cols-2 sm:items-start lg:grid-cols-[minmax(0,1fr)_minmax(0,14rem)_minmax(0,11rem)_auto]">
          <Field label={t("tokens.name")} error={nameError} errorTestId="token-name-error">
            {(id) => (
              <TextInput
                id={id}
                name="tokenName"
                value={name}
                maxLength={TOKEN_NAME_MAX}
                placeholder={t("tokens.namePlaceholder")}
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? `${id}-error` : undefined}
                onChange={(e) => {
                  setName(e.target.value);
                  setNameError(null);
                }}
                data-testid="token-name"
              />
            )}
          </Field>
          <Field label={t("tokens.scope")}>
            {(id) => (
              <SelectInput
                id={id}
                name="scope"
                value={scope}
                aria-describedby="token-scope-help"
                onChange={(e) => setScope(e.target.value as TokenScope)}
                data-testid="token-scope"
              >
                {/* A viewer's tokens can only read (the server refuses more). */}
                {TOKEN_SCOPES.filter((s) => canEdit.value || s === "read").map((s) => (
                  <option key={s} value={s}>
                    {t(`tokens.scopes.${s}`)}
                  </option>
                ))}
              </SelectInput>
            )}
          </Field>
          <Field label={t("tokens.expiry")}>
            {(id) => (
              <SelectInput
                id={id}
                name="expiresInDays"
                value={expiryKey(days)}
                onChange={(e) => setDays(e.target.value === "never" ? null : (Number(e.target.value) as TokenExpiryChoice))}
                data-testid="token-expiry"
              >
                {TOKEN_EXPIRY_CHOICES.map((d) => (
                  <option key={expiryKey(d)} value={expiryKey(d)}>
                    {t(`tokens.expiryOptions.${expiryKey(d)}`)}
                  </option>
                ))}
              </SelectInput>
            )}
          </Field>
          {twoFactor && (
            <Field label={t("auth.twoFactor.code")}>
              {(id) => <TextInput id={id} name="code" autoComplete="one-time-code" maxLength={32} value={code} onChange={(e) => setCode(e.target.value)} data-testid="token-code" />}
            </Field>
          )}
          {/* Lined up with the inputs: the same height as a label above them. */}
          <Button type="submit" busy={creating} className="sm:justify-self-start lg:mt-7" data-testid="token-create">
            {!creating && <PlusIcon className="size-4" />}
            {creating ? t("tokens.creating") : t("tokens.create")}
          </Button>
          <p id="token-scope-help" className="text-xs text-slate-500 sm:col-span-2 lg:col-span-4" data-testid="token-scope-help">
            {t(`tokens.scopeHelp.${scope}`)}
          </p>
        </form>

        {created && (
          <div data-testid="token-created" className="space-y-2 rounded-lg bg-amber-50 p-3 ring-1 ring-amber-200 sm:p-4">
            <Field label={t("tokens.secretLabel", { name: created.token.name })}>
              {(id) => (
                <div className="flex items-center gap-2">
                  <TextInput
                    id={id}
                    readOnly
                    value={created.secret}
                    onFocus={(e) => e.target.select()}
                    spellCheck={false}
                    autoComplete="off"
                    className="min-w-0 flex-1 font-mono text-xs sm:text-sm"
                    data-testid="token-secret"
                  />
                  <CopyButton text={created.secret} copiedMessage={t("tokens.secretCopied")} data-testid="token-copy" />
                </div>
              )}
            </Field>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-xs font-medium text-amber-700" data-testid="token-once">
                {t("tokens.secretOnce")}
              </p>
              <Button variant="ghost" size="sm" onClick={() => setCreated(null)} data-testid="token-dismiss">
                {t("tokens.dismiss")}
              </Button>
            </div>
          </div>
        )}

        {state.phase === "loading" && <LoadingMessage data-testid="tokens-loading">{t("tokens.loading")}</LoadingMessage>}
        {state.phase === "error" && <LoadError data-testid="tokens-error" message={state.message} onRetry={() => void load()} />}
        {state.phase === "loaded" &&
          (state.data.length === 0 ? (
            <p data-testid="tokens-empty" className="text-sm text-slate-500">
              {t("tokens.empty")}
            </p>
          ) : (
            <ul data-testid="tokens-list" className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
              {state.data.map((token) => (
                <li key={token.id} data-testid="token-row" data-token-id={token.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-3 py-3 sm:px-4">
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-2">
                      <span className="truncate text-sm font-medium text-slate-900" data-testid="token-name-cell">
                        {token.name}
                      </span>
                      <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-600" data-testid="token-prefix">
                        {token.prefix}…
                      </code>
                      <span
                        className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${SCOPE_BADGE[token.scope]}`}
                        title={t(`tokens.scopeHelp.${token.scope}`)}
                        data-testid="token-scope-badge"
                        data-scope={token.scope}
                      >
                        {t(`tokens.scopes.${token.scope}`)}
                      </span>
                      {token.expired && (
                        <span
                          className="inline-flex items-center rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700 ring-1 ring-inset ring-red-600/20"
                          data-testid="token-expired"
                        >
                          {t("tokens.expiredBadge")}
                        </span>
                      )}
                    </p>
                    <p className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-slate-500">
                      <span title={formatTime.zoneOf(token.createdAt)}>{t("tokens.createdAt", { time: formatTime(token.createdAt) })}</span>
                      <span title={token.expiresAt === null ? undefined : formatTime.zoneOf(token.expiresAt)} data-testid="token-expires">
                        {token.expiresAt === null
                          ? t("tokens.neverExpires")
                          : t(token.expired ? "tokens.expiredAt" : "tokens.expiresAt", { time: formatTime(token.expiresAt) })}
                      </span>
                      <span data-testid="token-last-used">
                        {t("tokens.lastUsed")} <Ago at={token.lastUsedAt} never={t("tokens.neverUsed")} />
                      </span>
                    </p>
                  </div>
                  <Button
                    variant="dangerGhost"
                    size="sm"
                    busy={revoke.deletingId === token.id}
                    onClick={() => revoke.ask(token)}
                    data-testid="token-revoke"
                  >
                    {t("tokens.revoke")}
                  </Button>
                </li>
              ))}
            </ul>
          ))}
      </div>
      {revoke.dialog}
    </Card>
  );
}
