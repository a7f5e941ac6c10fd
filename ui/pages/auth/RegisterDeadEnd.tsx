import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "../../components/AuthCard";
import { ButtonLink } from "../../components/Button";
import { ShieldIcon } from "../../components/icons";

interface RegisterDeadEndProps {
  /** Test id of the panel; its message and login button get `-message` and `-login` after it. */
  testId: string;
  /** What is wrong, in a few words (under the page title). */
  heading: string;
  /** What to do about it. */
  message: string;
  /** Another way on, under the login button. */
  children?: ReactNode;
}

/** /register when it cannot register anyone: closed registration, or an invite link that can no longer be used. No form. */
export function RegisterDeadEnd({ testId, heading, message, children }: RegisterDeadEndProps) {
  const { t } = useTranslation();
  return (
    <AuthCard title={t("auth.register.title")} subtitle={heading}>
      <div data-testid={testId} className="flex flex-col items-center gap-5 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-amber-50 text-amber-600 ring-1 ring-amber-200">
          <ShieldIcon className="size-6" />
        </span>
        <p role="status" data-testid={`${testId}-message`} className="text-sm leading-relaxed text-slate-600">
          {message}
        </p>
        <ButtonLink href="/login" className="w-full" data-testid={`${testId}-login`}>
          {t("auth.register.closedLogin")}
        </ButtonLink>
        {children}
      </div>
    </AuthCard>
  );
}
