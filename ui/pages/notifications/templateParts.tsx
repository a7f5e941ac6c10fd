// The templates tab's parts: the variables a template may use (the server's list, described in both languages) and a
// template problem put into words.
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { TEMPLATE_VARIABLES, type TemplateProblem } from "../../api/notifications";
import { Card } from "../../components/Card";

/**
 * A problem from the server (liquidjs and JSON.parse speak English) in the page's language: the kinds a user meets
 * are translated, anything else is quoted as a syntax error; its place as "line 2, column 3".
 */
export function templateProblemText(t: TFunction, problem: TemplateProblem, part: "title" | "body"): string {
  const P = "notifications.templates.problems";
  const m = problem.message;
  const unknown = /^unknown variable: (.+)$/.exec(m);
  const refused = /^the "(\w+)" tag is not allowed/.exec(m);
  const what = unknown
    ? t(`${P}.unknownVariable`, { name: unknown[1] })
    : refused
      ? t(`${P}.notAllowed`, { tag: refused[1] })
      : m.startsWith("the body is not valid JSON")
        ? t(`${P}.notJson`)
        : /limit/.test(m)
          ? t(`${P}.tooMuch`)
          : t(`${P}.syntax`, { detail: m });
  const where = problem.line !== undefined && problem.line !== null ? t(`${P}.at`, { line: problem.line, column: problem.column ?? 1 }) : "";
  return t(`${P}.in`, { part: t(`${P}.parts.${part}`), where, what });
}

/** The documented variables, grouped as a template sees them. */
export function TemplateVariables() {
  const { t } = useTranslation();
  const V = "notifications.templates.variables";
  const rows: [string, string][] = [
    ...TEMPLATE_VARIABLES.roots.filter((r) => r !== "target" && r !== "facts").map((r) => [r, t(`${V}.${r}`)] as [string, string]),
    ...TEMPLATE_VARIABLES.target.map((f) => [`target.${f}`, t(`${V}.target.${f}`)] as [string, string]),
  ];
  return (
    <Card className="h-fit p-4 sm:p-5" data-testid="template-variables">
      <h3 className="text-sm font-semibold text-slate-900">{t(`${V}.heading`)}</h3>
      <p className="mt-1 text-xs text-slate-500">{t(`${V}.hint`, { output: "{{ name }}" })}</p>
      <dl className="mt-3 space-y-2 text-xs">
        {rows.map(([name, text]) => (
          <div key={name}>
            <dt>
              <code className="rounded bg-slate-100 px-1 py-px font-mono text-[11px] text-indigo-700">{`{{ ${name} }}`}</code>
            </dt>
            <dd className="mt-0.5 text-slate-600">{text}</dd>
          </div>
        ))}
        <div>
          <dt>
            <code className="rounded bg-slate-100 px-1 py-px font-mono text-[11px] text-indigo-700">{"{{ facts.… }}"}</code>
          </dt>
          <dd className="mt-0.5 text-slate-600">{t(`${V}.facts`)}</dd>
          <dd className="mt-1 break-words font-mono text-[11px] text-slate-500">{TEMPLATE_VARIABLES.facts.join(", ")}</dd>
        </div>
      </dl>
      <p className="mt-3 text-xs text-slate-500">{t(`${V}.example`)}</p>
      <pre className="mt-1 whitespace-pre-wrap rounded bg-slate-900 p-2 font-mono text-[11px] text-slate-100">
        {"{% for e in events %}\n- {{ e.target.name }}: {{ e.reason }}\n{% endfor %}"}
      </pre>
    </Card>
  );
}
