import { useSignals } from "@preact/signals-react/runtime";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Redirect } from "wouter";
import { canEdit, isAdmin, isAuthenticated, sessionReady } from "../state/session";
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

/** What only editors and admins may use (create, edit, delete buttons): hidden from viewers. */
export function EditorOnly({ children }: { children: ReactNode }) {
  useSignals();
  return canEdit.value ? <>{children}</> : null;
}

/**
 * Screens that only change things (create and edit forms): a viewer opening one by its address is told at once that
 * it is read-only, instead of filling in a form the server then refuses.
 */
export function RequireEditor({ children }: { children: ReactNode }) {
  useSignals();
  return canEdit.value ? <>{children}</> : <ReadOnly />;
}

function ReadOnly() {
  const { t } = useTranslation();
  return <Refusal testId="read-only" title={t("roles.readOnly.title")} message={t("roles.readOnly.message")} tone="info" />;
}

/** A whole-screen refusal: what the screen is and why this user cannot use it. */
function Refusal({ testId, title, message, tone }: { testId: string; title: string; message: string; tone: "info" | "error" }) {
  useDocumentTitle(title);
  return (
    <div data-testid={testId} role="alert" className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <span className={`flex size-12 items-center justify-center rounded-full ${tone === "info" ? "bg-sky-50 text-sky-700" : "bg-red-50 text-red-600"}`}>
        <ShieldIcon className="size-6" />
      </span>
      <h1 className="mt-4 text-xl font-semibold text-slate-900">{title}</h1>
      <p className={`mt-2 text-sm ${tone === "info" ? "text-slate-600" : "text-red-600"}`}>{message}</p>
    </div>
  );
}

/** A viewer's reminder, on every screen, of what the role allows. */
export function ViewerNote() {
  useSignals();
  const { t } = useTranslation();
  if (!isAuthenticated.value || canEdit.value) return null;
  return (
    <p data-testid="viewer-note" className="mb-4 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-800 ring-1 ring-sky-200">
      {t("roles.viewerNote")}
    </p>
  );
}

export function Forbidden() {
  const { t } = useTranslation();
  return <Refusal testId="forbidden" title={t("forbidden.title")} message={t("forbidden.message")} tone="error" />;
}
