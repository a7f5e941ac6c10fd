import { Component, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./Button";

function PageError() {
  const { t } = useTranslation();
  return (
    <div data-testid="page-error" role="alert" className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <p className="text-sm text-red-600">{t("common.pageLoadFailed")}</p>
      <Button variant="secondary" className="mt-4" onClick={() => window.location.reload()}>
        {t("common.reload")}
      </Button>
    </div>
  );
}

/**
 * Catches a page that fails to load or render (a lazy chunk missing after an upgrade, or offline) so the navbar
 * stays usable. Give it `key={location}` so moving to another page tries again.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error("Vigil: page failed", error);
  }

  render() {
    return this.state.failed ? <PageError /> : this.props.children;
  }
}
