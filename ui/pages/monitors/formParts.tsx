// Pieces of the monitor form (MonitorForm.tsx): a titled section, the check type chooser, the tag input.
import { useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { MONITOR_TYPES, type MonitorType } from "../../api/monitors";
import { TagChip } from "../../components/Tag";
import { splitTags } from "./formModel";

/** A red ring on an invalid control. */
export const INVALID = "ring-red-400! focus:ring-red-500!";

export function Section({ title, headingId, hint, children, testId }: { title: ReactNode; headingId?: string; hint?: ReactNode; children: ReactNode; testId?: string }) {
  const generated = useId();
  const id = headingId ?? generated;
  return (
    <div role="group" aria-labelledby={id} data-testid={testId} className="space-y-5 border-t border-slate-100 px-5 py-6 first:border-t-0 sm:px-6">
      <div>
        <h2 id={id} className="text-sm font-semibold text-slate-900">
          {title}
        </h2>
        {hint && <p className="mt-0.5 text-xs text-slate-500">{hint}</p>}
      </div>
      {children}
    </div>
  );
}

/**
 * The check type as a segmented radio group: native radios (Tab reaches the chosen one, arrow keys move the choice),
 * each named by its type and described by its one-line hint.
 */
export function TypeChooser({ value, labelledBy, onChange }: { value: MonitorType; labelledBy: string; onChange: (type: MonitorType) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div role="radiogroup" aria-labelledby={labelledBy} data-testid="monitor-type-chooser" className="grid grid-cols-2 gap-2 rounded-xl bg-slate-100 p-1 sm:grid-cols-3 lg:grid-cols-5">
      {MONITOR_TYPES.map((type) => {
        const checked = value === type;
        return (
          <label
            key={type}
            data-testid={`monitor-type-option-${type}`}
            data-checked={checked}
            className={`relative cursor-pointer rounded-lg px-3 py-2.5 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-500 ${
              checked ? "bg-white shadow-sm ring-1 ring-indigo-200" : "hover:bg-white/60"
            }`}
          >
            <input
              type="radio"
              name="type"
              value={type}
              checked={checked}
              onChange={() => onChange(type)}
              aria-labelledby={`${id}-${type}`}
              aria-describedby={`${id}-${type}-hint`}
              data-testid={`monitor-type-${type}`}
              className="absolute inset-0 size-full cursor-pointer opacity-0"
            />
            <span id={`${id}-${type}`} className={`block text-sm font-semibold ${checked ? "text-indigo-700" : "text-slate-700"}`}>
              {t(`monitors.types.${type}`)}
            </span>
            <span id={`${id}-${type}-hint`} className="mt-0.5 block text-xs leading-snug break-words text-slate-500">
              {t(`monitors.form.typeHints.${type}`)}
            </span>
          </label>
        );
      })}
    </div>
  );
}

interface TagInputProps {
  id: string;
  tags: string[];
  draft: string;
  invalid: boolean;
  /** Adds the text as tags (Enter, a comma, leaving the field); false when it was refused (the text stays). */
  onCommit: (text: string, rest?: string) => boolean;
  onDraft: (draft: string) => void;
  onRemove: (index: number) => void;
  /** The box's test id (an escalation policy's tags use the same input). */
  testId?: string;
}

/** Chips for the tags, then a text field: Enter or a comma adds, Backspace in the empty field removes the last. */
export function TagInput({ id, tags, draft, invalid, onCommit, onDraft, onRemove, testId = "monitor-tags" }: TagInputProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" || e.key === "," || e.key === "，") {
      e.preventDefault(); // Enter here adds a tag, it does not send the form
      if (draft.trim() !== "") onCommit(draft);
    } else if (e.key === "Backspace" && draft === "" && tags.length > 0) {
      e.preventDefault();
      onRemove(tags.length - 1);
    }
  };
  const onChange = (text: string) => {
    // A pasted "a, b, c": every part but the last becomes a tag; the last stays to be finished.
    const cut = Math.max(text.lastIndexOf(","), text.lastIndexOf("，"));
    if (cut >= 0 && splitTags(text.slice(0, cut)).length > 0) onCommit(text.slice(0, cut), text.slice(cut + 1));
    else onDraft(text);
  };
  return (
    <div
      data-testid={testId}
      onClick={() => input.current?.focus()}
      className={`flex min-h-[38px] w-full cursor-text flex-wrap items-center gap-1.5 rounded-lg bg-white px-2 py-1.5 shadow-sm ring-1 ring-inset ring-slate-300 focus-within:ring-2 focus-within:ring-indigo-500 ${
        invalid ? INVALID : ""
      }`}
    >
      {tags.map((tag, index) => (
        <TagChip key={tag.toLowerCase()} tag={tag} onRemove={() => onRemove(index)} removeLabel={t("monitors.form.removeTag", { tag })} />
      ))}
      <input
        ref={input}
        id={id}
        name="tags"
        autoComplete="off"
        spellCheck={false}
        enterKeyHint="enter"
        aria-invalid={invalid || undefined}
        placeholder={tags.length === 0 ? t("monitors.form.tagsPlaceholder") : undefined}
        value={draft}
        onKeyDown={onKeyDown}
        onChange={(e) => onChange(e.target.value)}
        onBlur={() => draft.trim() !== "" && onCommit(draft)}
        className="min-w-[8rem] flex-1 border-0 bg-transparent px-1 py-0.5 text-sm text-slate-900 placeholder:text-slate-400 focus:outline-none"
      />
    </div>
  );
}
