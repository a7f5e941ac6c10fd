import { useCallback, useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import {
  createInvite,
  DEFAULT_INVITE_ROLE,
  DEFAULT_INVITE_VALIDITY,
  getRegistration,
  INVITE_VALIDITY_HOURS,
  inviteLink,
  revokeInvite,
  setRegistrationOpen,
  setRegistrationRole,
  type InviteValidity,
  type PublicInvite,
} from "../../api/registration";
import type { Role } from "../../api/users";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { CopyButton } from "../../components/CodeBlock";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { Field, SelectInput, TextInput, Toggle } from "../../components/form";
import { PlusIcon } from "../../components/icons";
import { ROLE_CHOICES, RoleBadge, RoleOptions } from "../../components/RoleBadge";
import { loadSiteConfig } from "../../state/config";
import { useFormatDateTime } from "../../components/time";
import { LoadError, LoadingMessage } from "../../components/LoadState";

type PanelState = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; open: boolean; role: Role; invites: PublicInvite[] };

/** An invite just created: its token is in this reply only (the server keeps a hash). */
type CreatedInvite = { link: string; invite: PublicInvite };

/**
 * Admin: who may register. The instance's "anyone can register" setting, invite links (created here and shown once)
 * and the list of pending invites, each revocable.
 */
export function RegistrationPanel({ usernameOf }: { usernameOf: (id: number) => string | undefined }) {
  const { t } = useTranslation();
  const formatTime = useFormatDateTime();
  const [state, setState] = useState<PanelState>({ phase: "loading" });
  const [saving, setSaving] = useState(false);
  const [role, setRole] = useState<Role>(DEFAULT_INVITE_ROLE);
  const [hours, setHours] = useState<InviteValidity>(DEFAULT_INVITE_VALIDITY);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const [confirming, setConfirming] = useState<PublicInvite | null>(null);
  const [revokingId, setRevokingId] = useState<number | null>(null);

  const load = useCallback(
    async (quiet = false) => {
      if (!quiet) setState({ phase: "loading" });
      try {
        const reply = await getRegistration();
        setState({ phase: "loaded", open: reply.open, role: reply.role ?? "viewer", invites: reply.invites ?? [] });
      } catch (err) {
        if (!quiet) setState({ phase: "error", message: errorMessage(err, t("users.registration.fetchFailed")) });
      }
    },
    [t],
  );

  useEffect(() => {
    void load();
  }, [load]);

  const setOpen = (open: boolean) => setState((s) => (s.phase === "loaded" ? { ...s, open } : s));

  const toggle = async (open: boolean) => {
    setOpen(open); // at once; put back if the server says no
    setSaving(true);
    try {
      const reply = await setRegistrationOpen(open);
      setOpen(reply.open);
      toast.success(t(reply.open ? "users.registration.opened" : "users.registration.closed"));
      void loadSiteConfig(); // /register in this tab follows the new setting
    } catch (err) {
      setOpen(!open);
      toast.error(errorMessage(err, t("users.registration.saveFailed")));
    } finally {
      setSaving(false);
    }
  };

  const chooseRole = async (next: Role) => {
    setSaving(true);
    try {
      const reply = await setRegistrationRole(next);
      setState((s) => (s.phase === "loaded" ? { ...s, role: reply.role } : s));
      toast.success(t("users.registration.roleSaved"));
    } catch (err) {
      toast.error(errorMessage(err, t("users.registration.saveFailed")));
    } finally {
      setSaving(false);
    }
  };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setCreating(true);
    try {
      const reply = await createInvite({ role, hours });
      setCreated({ link: inviteLink(window.location.origin, reply.token), invite: reply.invite });
      setState((s) => (s.phase === "loaded" ? { ...s, invites: [...s.invites, reply.invite] } : s));
      toast.success(t("users.registration.created"));
    } catch (err) {
      toast.error(errorMessage(err, t("users.registration.createFailed")));
    } finally {
      setCreating(false);
    }
  };

  const cancelRevoke = useCallback(() => setConfirming(null), []);
  const revoke = async () => {
    if (!confirming) return;
    const id = confirming.id;
    setRevokingId(id);
    try {
      await revokeInvite(id);
      setState((s) => (s.phase === "loaded" ? { ...s, invites: s.invites.filter((i) => i.id !== id) } : s));
      setCreated((c) => (c?.invite.id === id ? null : c));
      toast.success(t("users.registration.revoked"));
    } catch (err) {
      toast.error(errorMessage(err, t("users.registration.revokeFailed")));
      void load(true); // it may have been used or revoked meanwhile
    } finally {
      setRevokingId(null);
      setConfirming(null);
    }
  };

  const roleName = (r: Role) => t(`users.roles.${r}`);

  return (
    <Card className="mb-6" data-testid="registration-panel">
      <CardHeader title={t("users.registration.title")} description={t("users.registration.subtitle")} />
      {state.phase === "loading" && (
        <LoadingMessage data-testid="registration-loading">{t("users.registration.loading")}</LoadingMessage>
      )}
      {state.phase === "error" && (
        <LoadError data-testid="registration-error" message={state.message} onRetry={() => void load()} />
      )}
      {state.phase === "loaded" && (
        <div className="divide-y divide-slate-100">
          <div className="px-4 py-4 sm:px-5">
            <Toggle
              name="registrationOpen"
              label={t("users.registration.open")}
              hint={t("users.registration.openHint")}
              checked={state.open}
              disabled={saving}
              onChange={(open) => void toggle(open)}
              data-testid="registration-open"
            />
            <div className="mt-3 max-w-md pl-7">
              <Field label={t("users.registration.openRole")}>
                {(id) => (
                  <SelectInput id={id} value={state.role} disabled={saving} onChange={(e) => void chooseRole(e.target.value as Role)} data-testid="registration-role">
                    <RoleOptions />
                  </SelectInput>
                )}
              </Field>
            </div>
          </div>

          <div className="space-y-5 px-5 py-5 sm:px-6">
            <div>
              <h3 className="text-sm font-semibold text-slate-900">{t("users.registration.invitesTitle")}</h3>
              <p className="mt-0.5 text-sm text-slate-500">{t("users.registration.invitesHint")}</p>
            </div>

            <form onSubmit={create} noValidate data-testid="invite-form" className="grid gap-3 sm:grid-cols-[minmax(0,12rem)_minmax(0,12rem)_auto] sm:items-end">
              <Field label={t("users.registration.role")}>
                {(id) => (
                  <SelectInput id={id} name="role" value={role} onChange={(e) => setRole(e.target.value as Role)} data-testid="invite-role">
                    {ROLE_CHOICES.map((r) => (
                      <option key={r} value={r}>
                        {roleName(r)}
                      </option>
                    ))}
                  </SelectInput>
                )}
              </Field>
              <Field label={t("users.registration.validity")}>
                {(id) => (
                  <SelectInput id={id} name="hours" value={hours} onChange={(e) => setHours(Number(e.target.value) as InviteValidity)} data-testid="invite-validity">
                    {INVITE_VALIDITY_HOURS.map((h) => (
                      <option key={h} value={h}>
                        {t(`users.registration.validityOptions.${h}`)}
                      </option>
                    ))}
                  </SelectInput>
                )}
              </Field>
              <Button type="submit" busy={creating} className="sm:justify-self-start" data-testid="invite-create">
                {!creating && <PlusIcon className="size-4" />}
                {creating ? t("users.registration.creating") : t("users.registration.create")}
              </Button>
            </form>

            {created && (
              <div data-testid="invite-created" className="space-y-2 rounded-lg bg-amber-50 p-3 ring-1 ring-amber-200 sm:p-4">
                <Field label={t("users.registration.link")}>
                  {(id) => (
                    <div className="flex items-center gap-2">
                      <TextInput
                        id={id}
                        readOnly
                        value={created.link}
                        onFocus={(e) => e.target.select()}
                        spellCheck={false}
                        className="min-w-0 flex-1 font-mono text-xs sm:text-sm"
                        data-testid="invite-link"
                      />
                      <CopyButton text={created.link} copiedMessage={t("users.registration.linkCopied")} data-testid="invite-copy" />
                    </div>
                  )}
                </Field>
                <p className="text-xs text-slate-600" title={formatTime.zoneOf(created.invite.expiresAt)}>
                  {t("users.registration.linkDetails", { role: roleName(created.invite.role), time: formatTime(created.invite.expiresAt) })}
                </p>
                <p className="text-xs font-medium text-amber-700">{t("users.registration.linkOnce")}</p>
              </div>
            )}

            <div>
              <h3 className="text-sm font-semibold text-slate-900">
                {t("users.registration.pending")}
                <span className="ml-1.5 font-normal tabular-nums text-slate-400" data-testid="invite-count">
                  {state.invites.length}
                </span>
              </h3>
              {state.invites.length === 0 ? (
                <p data-testid="invites-empty" className="mt-2 text-sm text-slate-500">
                  {t("users.registration.noPending")}
                </p>
              ) : (
                <ul data-testid="invites-list" className="mt-3 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
                  {state.invites.map((invite) => {
                    const by = invite.createdBy !== null ? usernameOf(invite.createdBy) : undefined;
                    const createdAt = formatTime(invite.createdAt);
                    return (
                      <li key={invite.id} data-testid="invite-row" data-invite-id={invite.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 px-3 py-3 sm:px-4">
                        <span className="w-18 shrink-0">
                          <RoleBadge role={invite.role} />
                        </span>
                        <div className="min-w-0 flex-1">
                          <p className="text-sm text-slate-700" title={formatTime.zoneOf(invite.expiresAt)}>
                            {t("users.registration.expires", { time: formatTime(invite.expiresAt) })}
                          </p>
                          <p className="text-xs text-slate-500" title={formatTime.zoneOf(invite.createdAt)}>
                            {by ? t("users.registration.createdAtBy", { time: createdAt, name: by }) : t("users.registration.createdAt", { time: createdAt })}
                          </p>
                        </div>
                        <Button
                          variant="dangerGhost"
                          size="sm"
                          busy={revokingId === invite.id}
                          onClick={() => setConfirming(invite)}
                          data-testid="invite-revoke"
                        >
                          {t("users.registration.revoke")}
                        </Button>
                      </li>
                    );
                  })}
                </ul>
              )}
            </div>
          </div>
        </div>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={t("users.registration.confirmRevoke.title")}
        message={
          confirming
            ? t("users.registration.confirmRevoke.message", { role: roleName(confirming.role), time: formatTime(confirming.expiresAt) })
            : ""
        }
        confirmLabel={revokingId !== null ? t("users.registration.revoking") : t("users.registration.confirmRevoke.confirm")}
        busy={revokingId !== null}
        onConfirm={() => void revoke()}
        onCancel={cancelRevoke}
      />
    </Card>
  );
}
