import { Fragment } from "react";

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

/**
 * Plain text with its http(s) addresses made into links and its line breaks kept: never HTML, so what an operator
 * writes (or pastes) cannot become markup on a public page.
 */
export function LinkedText({ text, className }: { text: string; className?: string }) {
  const parts: (string | { href: string })[] = [];
  let last = 0;
  for (const m of text.matchAll(URL_PATTERN)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push({ href: m[0] });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return (
    <span className={`whitespace-pre-line break-words ${className ?? ""}`}>
      {parts.map((p, i) =>
        typeof p === "string" ? (
          <Fragment key={i}>{p}</Fragment>
        ) : (
          <a key={i} href={p.href} target="_blank" rel="noopener noreferrer nofollow" className="text-indigo-600 underline hover:text-indigo-700">
            {p.href}
          </a>
        ),
      )}
    </span>
  );
}
