import type { ReactNode } from "react";
import { LogoMark } from "./icons";

/** The centred card of the login and register screens. */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md py-6 sm:py-10">
      <div className="mb-6 flex flex-col items-center text-center">
        <LogoMark className="size-11" />
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-1 text-sm text-slate-500">{subtitle}</p>
      </div>
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">{children}</div>
      {footer && <p className="mt-6 text-center text-sm text-slate-500">{footer}</p>}
    </div>
  );
}
