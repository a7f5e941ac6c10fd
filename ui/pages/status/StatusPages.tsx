// /status-pages: every status page with its address and who may see it; the default one is edited at /status/config,
// the others at /status-pages/:id.
//
// data-testids: `status-pages-create`, `status-pages-list`, `status-page-row-{id}` (data-visibility), `status-page-open-{id}`.
import { EditorOnly } from "../../components/guards";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { deleteStatusPage, listStatusPages, type StatusPageSettings } from "../../api/status";
import { Button, ButtonLink, buttonClass } from "../../components/Button";
import { Card, PageHeader } from "../../components/Card";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { useDeleteConfirmation } from "../../components/useDeleteConfirmation";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";
import { ManagedBadge, useManagedMarks } from "../../components/Managed";

export default function StatusPages() {
  const { t } = useTranslation();
  useDocumentTitle(t("statusPages.title"));
  useManagedMarks();
  const fetch = useCallback(async () => (await listStatusPages()).pages ?? [], []);
  const { state, reload, update } = useLoad(fetch, t("statusPages.fetchFailed"));
  const { ask, dialog } = useDeleteConfirmation<StatusPageSettings>({
    section: "statusPages",
    message: (p) => t("statusPages.confirmDelete.message", { title: p.title || p.slug }),
    remove: deleteStatusPage,
    onDeleted: (id) => update((pages) => pages.filter((p) => p.id !== id)),
  });
  return (
    <div>
      <PageHeader
        title={t("statusPages.title")}
        description={t("statusPages.subtitle")}
        actions={
          <EditorOnly>
          <ButtonLink href="/status-pages/new" data-testid="status-pages-create">
            {t("statusPages.create")}
          </ButtonLink>
          </EditorOnly>
        }
      />
      {state.phase === "loading" && <LoadingMessage data-testid="status-pages-loading">{t("statusPages.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError message={state.message} onRetry={() => void reload()} data-testid="status-pages-error" />}
      {state.phase === "loaded" && (
        <Card>
          <ul className="divide-y divide-slate-100" data-testid="status-pages-list">
            {state.data.map((p) => {
              const count = p.groups.reduce((n, g) => n + g.items.length, 0);
              const edit = p.isDefault ? "/status/config" : `/status-pages/${p.id}`;
              return (
                <li key={p.id} data-testid={`status-page-row-${p.id}`} data-visibility={p.visibility} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0 space-y-1">
                    <Link href={edit} className="break-words font-medium text-slate-900 hover:text-indigo-600">
                      {p.title || t("statusPage.title")}
                    </Link>
                    {p.isDefault && <span className="ml-2 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700">{t("statusPages.default")}</span>}
                    <span className="ml-2">
                      <ManagedBadge what="statusPage" id={p.id} testId={`status-page-managed-${p.id}`} />
                    </span>
                    <p className="break-all text-xs text-slate-500">
                      {p.url}
                      {p.customDomain && ` · ${p.customDomain}`}
                    </p>
                    <p className="text-xs text-slate-500">
                      {t(`statusPages.visibility.${p.visibility}`)} · {t("statusPages.items", { count })}
                    </p>
                  </div>
                  <div className="flex shrink-0 flex-wrap gap-2">
                    <a href={p.url} target="_blank" rel="noreferrer" className={buttonClass("secondary", "sm")} data-testid={`status-page-open-${p.id}`}>
                      {t("statusPages.open")}
                    </a>
                    <Link href={edit} className={buttonClass("secondary", "sm")}>
                      {t("common.edit")}
                    </Link>
                    {!p.isDefault && (
                      <Button size="sm" variant="dangerGhost" onClick={() => ask(p)}>
                        {t("common.delete")}
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        </Card>
      )}
      {dialog}
    </div>
  );
}
