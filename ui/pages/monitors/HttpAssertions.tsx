// The http monitor's assertions: a keyword (or its absence), a JSON path expression, a response-time limit, the
// certificate's expiry, and how the connection is made (invalid certificates accepted, a new connection per check).
//
// data-testids: `monitor-jsonpath-examples`, `monitor-error-<field>`.
import type { InputHTMLAttributes, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LIMITS } from "../../api/monitors";
import { Field, Toggle } from "../../components/form";
import type { MonitorFormValues, TextKey } from "./formModel";

/** Examples under the JSON path field (a click puts one in the field). */
const JSON_PATH_EXAMPLES = ['$.status == "ok"', "$.queue.length < 100", '$.data[0].name != "x"', '$.tags contains "prod"', "$.ready"];

type Input = (id: string) => ReactNode;

export function HttpAssertions({ values, update, problem, textInput, numberInput }: {
  values: MonitorFormValues;
  update: (patch: Partial<MonitorFormValues>) => void;
  problem: (field: string) => string | undefined;
  textInput: (name: TextKey, props?: InputHTMLAttributes<HTMLInputElement>) => Input;
  numberInput: (name: TextKey, min: number, max: number, props?: InputHTMLAttributes<HTMLInputElement>) => Input;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="space-y-2">
        <Field label={t("monitors.form.keyword")} optionalLabel={t("common.optional")} hint={t("monitors.form.keywordHint")} error={problem("keyword")} errorTestId="monitor-error-keyword">
          {textInput("keyword")}
        </Field>
        <div className="grid gap-3 sm:grid-cols-2">
          <Toggle
            name="keywordInvert"
            label={t("monitors.form.keywordInvert")}
            hint={t("monitors.form.keywordInvertHint")}
            checked={values.keywordInvert}
            onChange={(v) => update({ keywordInvert: v })}
          />
          <Toggle
            name="keywordCaseSensitive"
            label={t("monitors.form.keywordCase")}
            hint={t("monitors.form.keywordCaseHint")}
            checked={values.keywordCaseSensitive}
            onChange={(v) => update({ keywordCaseSensitive: v })}
          />
        </div>
      </div>

      <div className="space-y-2">
        <Field label={t("monitors.form.jsonPath")} optionalLabel={t("common.optional")} hint={t("monitors.form.jsonPathHint")} error={problem("jsonPath")} errorTestId="monitor-error-jsonPath">
          {textInput("jsonPath", { placeholder: '$.status == "ok"', className: "font-mono" })}
        </Field>
        <div className="flex flex-wrap items-center gap-1.5 text-xs text-slate-500" data-testid="monitor-jsonpath-examples">
          <span>{t("monitors.form.jsonPathExamples")}:</span>
          {JSON_PATH_EXAMPLES.map((example) => (
            <button
              key={example}
              type="button"
              onClick={() => update({ jsonPath: example })}
              className="cursor-pointer rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-700 hover:bg-indigo-50 hover:text-indigo-700"
            >
              {example}
            </button>
          ))}
        </div>
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label={t("monitors.form.maxResponseTime")}
          optionalLabel={t("common.optional")}
          hint={t("monitors.form.maxResponseTimeHint")}
          error={problem("maxResponseTime")}
          errorTestId="monitor-error-maxResponseTime"
        >
          {numberInput("maxResponseTime", 1, LIMITS.maxResponseTime, { placeholder: "1000" })}
        </Field>
        <Field
          label={t("monitors.form.tlsExpiryDays")}
          optionalLabel={t("common.optional")}
          hint={t("monitors.form.tlsExpiryDaysHint")}
          error={problem("tlsExpiryDays")}
          errorTestId="monitor-error-tlsExpiryDays"
        >
          {numberInput("tlsExpiryDays", 1, LIMITS.maxTlsExpiryDays, { placeholder: "14" })}
        </Field>
      </div>
      <Toggle name="ignoreTls" label={t("monitors.form.ignoreTls")} hint={t("monitors.form.ignoreTlsHint")} checked={values.ignoreTls} onChange={(v) => update({ ignoreTls: v })} />
      <Toggle
        name="freshConnection"
        label={t("monitors.form.freshConnection")}
        hint={t("monitors.form.freshConnectionHint")}
        checked={values.freshConnection}
        onChange={(v) => update({ freshConnection: v })}
      />
    </>
  );
}
