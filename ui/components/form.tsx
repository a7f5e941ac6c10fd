import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";

const CONTROL =
  "block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 " +
  "placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-500 focus:outline-none " +
  "disabled:bg-slate-50 disabled:text-slate-500";

interface FieldProps {
  label: ReactNode;
  /** Small grey text under the control. */
  hint?: ReactNode;
  /** Adds "(optional)" after the label. */
  optionalLabel?: string;
  /** A problem with the value, in red under the control (its id is `${id}-error`, for aria-describedby). */
  error?: ReactNode;
  errorTestId?: string;
  children: (id: string) => ReactNode;
}

/** A label above its control; the control gets the generated id through the render prop. */
export function Field({ label, hint, optionalLabel, error, errorTestId, children }: FieldProps) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
        {optionalLabel && <span className="ml-1 font-normal text-slate-400">({optionalLabel})</span>}
      </label>
      {children(id)}
      {error ? (
        <p id={`${id}-error`} data-testid={errorTestId} className="text-xs font-medium text-red-600">
          {error}
        </p>
      ) : (
        hint && <p className="text-xs text-slate-500">{hint}</p>
      )}
    </div>
  );
}

export function TextInput({ className = "", ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={`${CONTROL} ${className}`} {...props} />;
}

export function SelectInput({ className = "", children, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select className={`${CONTROL} pr-8 ${className}`} {...props}>
      {children}
    </select>
  );
}

interface ToggleProps {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** Test id of the checkbox itself. */
  "data-testid"?: string;
}

/** A checkbox with its label and a line of explanation, the whole block clickable. */
export function Toggle({ name, label, hint, checked, onChange, disabled = false, "data-testid": testId }: ToggleProps) {
  return (
    <label className={`flex items-start gap-3 rounded-lg p-1 ${disabled ? "cursor-not-allowed opacity-70" : "cursor-pointer"}`}>
      <input
        type="checkbox"
        name={name}
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
        className="mt-0.5 size-4 shrink-0 cursor-pointer rounded border-slate-300 accent-indigo-600 disabled:cursor-not-allowed"
      />
      <span>
        <span className="block text-sm font-medium text-slate-700">{label}</span>
        {hint && <span className="block text-xs text-slate-500">{hint}</span>}
      </span>
    </label>
  );
}

/** The result of a form: errors in red, successes in green (spec §8). */
export function FormMessage({ kind, children }: { kind: "error" | "success"; children: ReactNode }) {
  if (!children) return null;
  const error = kind === "error";
  return (
    <p
      role={error ? "alert" : "status"}
      data-testid={error ? "form-error" : "form-success"}
      className={`rounded-lg px-3 py-2 text-sm ${error ? "bg-red-50 text-red-600" : "bg-emerald-50 text-emerald-700"}`}
    >
      {children}
    </p>
  );
}

const CHIP = "inline-flex min-w-9 cursor-pointer items-center justify-center rounded-lg px-2.5 py-1.5 text-sm font-medium ring-1 ring-inset transition";
const CHIP_ON = "bg-indigo-600 text-white ring-indigo-600";
const CHIP_OFF = "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50";

/** A pressed / not pressed button in a row of choices (weekdays, days of the month). */
export function Chip({ on, label, onClick, testId }: { on: boolean; label: string; onClick: () => void; testId: string }) {
  return (
    <button type="button" aria-pressed={on} onClick={onClick} data-testid={testId} className={`${CHIP} ${on ? CHIP_ON : CHIP_OFF}`}>
      {label}
    </button>
  );
}
