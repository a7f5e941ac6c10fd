import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { buttonClass } from "./Button";
import { copyText } from "./clipboard";
import { CheckIcon, CopyIcon } from "./icons";

interface CopyButtonProps {
  text: string;
  /** What the toast says was copied (default "Copied to clipboard"). */
  copiedMessage?: string;
  /** Light button on a dark block. */
  onDark?: boolean;
  className?: string;
  "data-testid"?: string;
}

/** A small "Copy" button: copies `text`, confirms with a toast and a check mark for two seconds. */
export function CopyButton({ text, copiedMessage, onDark = false, className = "", ...rest }: CopyButtonProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    if (await copyText(text)) {
      setCopied(true);
      toast.success(copiedMessage ?? t("common.copied"));
    } else {
      toast.error(t("common.copyFailed"));
    }
  };

  return (
    <button
      type="button"
      onClick={() => void copy()}
      className={`${buttonClass(onDark ? "onDark" : "secondary", "sm")} shrink-0 ${className}`}
      aria-label={t("common.copy")}
      {...rest}
    >
      {copied ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
      <span>{copied ? t("common.copiedShort") : t("common.copy")}</span>
    </button>
  );
}

interface CodeBlockProps {
  code: string;
  /** Test id of the block; the copy button gets `copyTestId`. */
  "data-testid"?: string;
  copyTestId?: string;
  copiedMessage?: string;
}

/** A shell command on a dark background, wrapped when long, with its copy button. */
export function CodeBlock({ code, copyTestId, copiedMessage, ...rest }: CodeBlockProps) {
  return (
    <div className="flex items-start gap-3 rounded-lg bg-slate-900 p-3 pl-4 shadow-inner ring-1 ring-slate-800">
      <pre className="min-w-0 flex-1 self-center overflow-x-auto whitespace-pre-wrap font-mono [overflow-wrap:anywhere] text-[13px] leading-6 text-slate-100" {...rest}>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} onDark copiedMessage={copiedMessage} data-testid={copyTestId} />
    </div>
  );
}
