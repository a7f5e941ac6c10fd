import { useSignals } from "@preact/signals-react/runtime";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Redirect } from "wouter";
import { isAdmin, isAuthenticated, sessionReady } from "../state/session";
import { ShieldIcon } from "./icons";
import { PageLoading } from "./PageLoading";
import { useDocumentTitle } from "./useDocumentTitle";

/** Layout routes need a session: wait for the start-up check, then show the page or go to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  useSignals();
  if (!sessionReady.value) return <PageLoading />;
  if (!isAuthenticated.value) return <Redirect to="/login" replace />;
  return <>{children}</>;
}

/** Admin-only screens (the server enforces it too). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  useSignals();
  return isAdmin.value ? <>{children}</> : <Forbidden />;
}

export function Forbidden() {
  const { t } = useTranslation();
  useDocumentTitle(t("forbidden.title"));
  return (
    <div data-testid="forbidden" role="alert" className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600">
        <ShieldIcon className="size-6" />
      </span>
      <h1 className="mt-4 text-xl font-semibold text-slate-900">{t("forbidden.title")}</h1>
      <p className="mt-2 text-sm text-red-600">{t("forbidden.message")}</p>
    </div>
  );
}
