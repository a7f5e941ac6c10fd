import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { errorMessage } from "../../api/errors";
import { deleteUser, listUsers, type PublicUser } from "../../api/users";
import { Button, ButtonLink, buttonClass } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { RoleBadge, StatusBadge } from "../../components/RoleBadge";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { user as sessionUser } from "../../state/session";
import { RegistrationPanel } from "./RegistrationPanel";
import { TwoFactorPolicy } from "./TwoFactorAdmin";
import { SsoSettings } from "./SsoSettings";
import { BackupCard } from "./BackupCard";
import { ImportCard } from "./ImportCard";
import { LoadError, LoadingMessage } from "../../components/LoadState";

type ListState = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; users: PublicUser[] };

const TH = "px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-500";
const TD = "block text-sm text-slate-700 md:table-cell md:px-4 md:py-3 md:whitespace-nowrap";
/** Below md each row is a card: the column's name beside its value (the header row is hidden there). */
const PHONE_LABEL = "mr-2 text-xs text-slate-400 md:hidden";

export default function UserList() {
  useSignals();
  const { t } = useTranslation();
  useDocumentTitle(t("users.title"));
  const [state, setState] = useState<ListState>({ phase: "loading" });

  const load = useCallback(async () => {
    setState({ phase: "loading" });
    try {
      const reply = await listUsers();
      setState({ phase: "loaded", users: reply.users ?? [] });
    } catch (err) {
      setState({ phase: "error", message: errorMessage(err, t("users.fetchFailed")) });
    }
  }, [t]);

  useEffect(() => {
    void load();
  }, [load]);

  const { ask: askDelete, deletingId, dialog: deleteDialog } = useDeleteConfirmation<PublicUser>({
    section: "users",
    message: (u) => t("users.confirmDelete.message", { username: u.username }),
    remove: deleteUser,
    onDeleted: (id) => setState((s) => (s.phase === "loaded" ? { ...s, users: s.users.filter((u) => u.id !== id) } : s)),
  });

  const usernameOf = (id: number) => (state.phase === "loaded" ? state.users.find((u) => u.id === id)?.username : undefined);

  return (
    <div>
      <PageHeader
        title={t("users.title")}
        description={t("users.subtitle")}
        actions={
          <ButtonLink href="/users/create" data-testid="user-create-button">
            {t("users.create")}
          </ButtonLink>
        }
      />
      <TwoFactorPolicy />
      <RegistrationPanel usernameOf={usernameOf} />
      <Card className="overflow-hidden">
        {state.phase === "loading" && (
          <LoadingMessage data-testid="users-loading">{t("users.loading")}</LoadingMessage>
        )}
        {state.phase === "error" && (
          <LoadError data-testid="users-error" message={state.message} onRetry={() => void load()} />
        )}
        {state.phase === "loaded" && state.users.length === 0 && (
          <p data-testid="users-empty" className="px-6 py-12 text-center text-sm text-slate-500">
            {t("users.empty")}
          </p>
        )}
        {state.phase === "loaded" && state.users.length > 0 && (
          <div className="md:overflow-x-auto">
            <table data-testid="users-table" className="block min-w-full md:table md:divide-y md:divide-slate-200">
              <thead className="hidden bg-slate-50 md:table-header-group">
                <tr>
                  <th scope="col" className={TH}>{t("users.columns.id")}</th>
                  <th scope="col" className={TH}>{t("users.columns.username")}</th>
                  <th scope="col" className={TH}>{t("users.columns.email")}</th>
                  <th scope="col" className={TH}>{t("users.columns.role")}</th>
                  <th scope="col" className={TH}>{t("users.columns.status")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("users.columns.actions")}</th>
                </tr>
              </thead>
              <tbody className="block divide-y divide-slate-100 bg-white md:table-row-group">
                {state.users.map((u) => (
                  <tr key={u.id} data-testid={`user-row-${u.id}`} className="grid grid-cols-2 gap-x-4 gap-y-2 px-4 py-4 hover:bg-slate-50/60 md:table-row md:p-0">
                    <td className={`${TD} order-1 tabular-nums text-slate-500 md:order-none`}>
                      <span className={PHONE_LABEL}>{t("users.columns.id")}</span>
                      {u.id}
                    </td>
                    <td className={`${TD} order-first col-span-2 truncate font-medium text-slate-900 md:order-none`}>
                      {u.username}
                      {u.id === sessionUser.value?.id && <span className="ml-1.5 text-xs font-normal text-slate-400">{t("users.you")}</span>}
                    </td>
                    <td className={`${TD} order-1 col-span-2 truncate md:order-none`}>
                      <span className={PHONE_LABEL}>{t("users.columns.email")}</span>
                      <span data-testid={`user-email-${u.id}`}>{u.email || t("common.dash")}</span>
                    </td>
                    <td className={`${TD} order-1 md:order-none`}>
                      <span className={PHONE_LABEL}>{t("users.columns.role")}</span>
                      <RoleBadge role={u.role} />
                    </td>
                    <td className={`${TD} order-1 md:order-none`}>
                      <span className={PHONE_LABEL}>{t("users.columns.status")}</span>
                      <StatusBadge status={u.status} />
                    </td>
                    <td className={`${TD} order-2 col-span-2 md:order-none md:text-right`}>
                      <div className="flex gap-2 md:justify-end">
                        <Link href={`/users/${u.id}`} className={buttonClass("secondary", "sm")} data-testid={`user-edit-${u.id}`}>
                          {t("common.edit")}
                        </Link>
                        {/* Nobody deletes themself (the server refuses it too). */}
                        {u.id !== sessionUser.value?.id && (
                          <Button
                            variant="dangerGhost"
                            size="sm"
                            busy={deletingId === u.id}
                            onClick={() => askDelete(u)}
                            data-testid={`user-delete-${u.id}`}
                          >
                            {t("common.delete")}
                          </Button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <div className="mt-6">
        <SsoSettings />
      </div>
      <BackupCard />
      <ImportCard />
      {deleteDialog}
    </div>
  );
}
