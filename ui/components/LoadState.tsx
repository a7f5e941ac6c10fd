import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./Button";

/** The centred "Loading …" line of a list or panel while its first fetch runs. */
export function LoadingMessage({ children, "data-testid": testId }: { children: ReactNode; "data-testid": string }) {
  return (
    <p data-testid={testId} role="status" className="px-6 py-12 text-center text-sm text-slate-500">
      {children}
    </p>
  );
}

interface LoadErrorProps {
  message: string;
  onRetry: () => void;
  /** On one line inside a section, instead of centred in an empty card. */
  inline?: boolean;
  className?: string;
  "data-testid": string;
}

/** A failed fetch: its message in red and a retry button. */
export function LoadError({ message, onRetry, inline = false, className = "", "data-testid": testId }: LoadErrorProps) {
  const { t } = useTranslation();
  const layout = inline ? "flex flex-wrap items-center gap-3" : "flex flex-col items-center gap-4 px-6 py-12 text-center";
  return (
    <div className={`${layout} ${className}`}>
      <p data-testid={testId} role="alert" className="text-sm text-red-600">
        {message}
      </p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {t("common.retry")}
      </Button>
    </div>
  );
}
