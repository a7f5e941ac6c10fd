// A SettingsCheckType (settings-type.ts) as the CheckType the scheduler runs: its settings object validated by its
// schema (defaults filled, the first wrong field's message as a 400), secrets kept when sent back masked and masked
// in replies, and every check bounded by the monitor's timeout whatever the client library does, its sentence
// scrubbed of secrets.
import { FormatRegistry } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { badRequest } from "../../http/http-error";
import { timeoutError } from "../check-errors";
import type { MonitorType } from "../public";
import type { CheckOutcome, CheckType } from "./check-type";
import { describeError } from "./network-errors";
import { keepSecrets, maskSettings, maskUrlPassword, scrub, secretValues, type AnySettingsType, type SettingsCheckResult } from "./settings-type";

// `format` tells the form how to show a text field (settings-type.ts); any text is valid for these.
for (const format of ["textarea"]) if (!FormatRegistry.Has(format)) FormatRegistry.Set(format, () => true);

/** How long past its timeout a check's client may take to notice before the check is given up as timed out. */
const GRACE_MS = 250;

/** The settings checked against the schema: unknown fields refused, defaults filled, the first problem as a 400. */
export function validateSettings(module: AnySettingsType, settings: Record<string, unknown>): Record<string, unknown> {
  const known = module.schema.properties;
  const unknown = Object.keys(settings).filter((k) => !(k in known));
  if (unknown.length) throw badRequest("VALIDATION", `Unknown setting${unknown.length > 1 ? "s" : ""} for a ${module.type} monitor: ${unknown.join(", ")}`);
  const filled = Value.Default(module.schema, structuredClone(settings)) as Record<string, unknown>;
  const problem = Value.Errors(module.schema, filled).First();
  if (problem) {
    const field = problem.path.replace(/^\//, "").split("/")[0] ?? "";
    const message = (problem.schema as { error?: string }).error ?? `settings.${field}: ${problem.message}`;
    throw badRequest("VALIDATION", message);
  }
  return filled;
}

export function settingsCheckType(module: AnySettingsType): CheckType {
  return {
    type: module.type as MonitorType,
    runsOnAgents: module.runsOnAgents,
    validate(fields, policy, _creating, stored) {
      const settings = validateSettings(module, keepSecrets(module.schema, stored, fields.settings));
      fields.settings = module.normalise ? (module.normalise(settings as never, policy) as Record<string, unknown>) : settings;
    },
    async check(fields, ctx): Promise<CheckOutcome> {
      const time = ctx.now();
      const timeoutMs = Math.round(fields.timeout * 1000);
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = ctx.signal ? AbortSignal.any([ctx.signal, deadline]) : deadline;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<SettingsCheckResult>((resolve) => {
        timer = setTimeout(() => resolve({ up: false, responseTime: null, error: timeoutError(fields.timeout) }), timeoutMs + GRACE_MS);
      });
      let result: SettingsCheckResult;
      try {
        result = await Promise.race([
          module.check(fields.settings as never, { timeoutMs, signal, policy: ctx.policy, resolve: ctx.resolve, now: ctx.now }),
          late,
        ]);
      } catch (e) {
        // A module never throws by contract; one that does still gives a down check rather than a crashed scheduler.
        result = { up: false, responseTime: null, error: describeError(e, fields.timeout) };
      } finally {
        clearTimeout(timer);
      }
      const error = result.error === null ? null : scrub(result.error, secretValues(module.schema, fields.settings));
      const screenshot = (result as { screenshot?: unknown }).screenshot;
      return {
        time,
        up: result.up,
        responseTime: result.responseTime,
        httpStatus: null,
        error,
        ...(result.tlsExpiresAt != null ? { tlsExpiresAt: result.tlsExpiresAt } : {}),
        ...(!result.up && screenshot instanceof Uint8Array ? { screenshot } : {}),
      };
    },
    // A target is shown in lists, alerts and logs: a URL's password never is, whatever the type wrote.
    target: (fields) => maskUrlPassword(module.target(fields.settings as never)),
    facts: () => ({}),
    view: (settings) => maskSettings(module.schema, settings),
    ...(module.close ? { close: module.close } : {}),
  };
}
