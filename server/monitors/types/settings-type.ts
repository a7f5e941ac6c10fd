// The check types added after the first five declare their settings as ONE typed object (a TypeBox schema in their
// own folder) instead of more columns on the flat monitor shape: the schema names the fields, their limits, defaults,
// error messages, which are secrets and how the form shows them; the module validates and checks with it. The store
// keeps the object as JSON (monitors.settings); the API takes and returns it as `settings`, secrets masked.
//
// Schema annotations read by the rest of Vigil (plain JSON Schema keywords, so the UI and OpenAPI see them too):
//   error: "…"            the 400 message when the field is wrong (as the request schemas do)
//   secret: true          a password or token: masked in every reply, log and live message; kept when sent back masked
//   secret: "url"         a connection string: only its password part is masked (postgres://u:••••@db/app)
//   format: "textarea"    the form shows a multi-line box (query, script, message)
//   host: true            a host name or address the address policy judges before connecting
import type { Static, TObject } from "@sinclair/typebox";
import type { Resolve, TargetPolicy } from "../../net/targets";

export interface SettingsCheckContext {
  /** The monitor's timeout in ms: settle within it (the caller also gives up at it, reporting a timeout). */
  timeoutMs: number;
  /** Aborts at the timeout or when the scheduler stops: close connections on it. */
  signal: AbortSignal;
  policy: TargetPolicy;
  resolve: Resolve;
  now: () => number;
  /** The monitor checked (browser checks keep a screenshot per monitor). */
  monitorId?: number;
}

/** What one check found. `time` is set by the caller; the module measures its own response time. */
export interface SettingsCheckResult {
  up: boolean;
  /** ms; null when no answer came. */
  responseTime: number | null;
  /** A check-errors.ts sentence; null when up. Never includes a secret. */
  error: string | null;
  /** When the certificate seen expires (Unix ms), where the protocol has one (mail…): lists and notifications use it. */
  tlsExpiresAt?: number | null;
}

export interface SettingsCheckType<S extends TObject = TObject> {
  readonly type: string;
  /** The settings object: field names as the API and the form use them, in the order the form shows them. */
  readonly schema: S;
  /** Whether an agent can run it: false keeps it on the server (its client library stays out of the agent). */
  readonly runsOnAgents: boolean;
  /**
   * Checks past the schema (a host the policy refuses, an expression that does not parse…) and normalises; throws a
   * 400 HttpError (badRequest) with a stable code.
   */
  normalise?(settings: Static<S>, policy: TargetPolicy): Static<S>;
  /** One check; never throws: a failure is `up: false` with a sentence. Bounded by ctx.timeoutMs, connections closed. */
  check(settings: Static<S>, ctx: SettingsCheckContext): Promise<SettingsCheckResult>;
  /** What lists show and search for: host:port, the container's name… never a secret. */
  target(settings: Static<S>): string;
  /** null when this server can run the type; else why not, as an i18n key under monitors.unavailable (browser). */
  unavailable?(): string | null;
  /** Releases what checks share (the browser type's Chromium) when the monitors stop. */
  close?(): Promise<void>;
}

export type AnySettingsType = SettingsCheckType<TObject>;

/** The declared secrets of a settings schema: field name → whole ("true") or the URL's password ("url"). */
export function secretFields(schema: TObject): Map<string, true | "url"> {
  const out = new Map<string, true | "url">();
  for (const [key, prop] of Object.entries(schema.properties)) {
    const secret = (prop as { secret?: unknown }).secret;
    if (secret === true || secret === "url") out.set(key, secret);
  }
  return out;
}

export const SECRET_MASK = "••••••••";

/** A connection string with its password (and only that) replaced: "postgres://app:••••••••@db:5432/app". */
export function maskUrlPassword(value: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/@]*)@/i.exec(value);
  if (!m) return value;
  const colon = m[2]!.indexOf(":");
  if (colon < 0) return value;
  return `${m[1]}${m[2]!.slice(0, colon)}:${SECRET_MASK}@${value.slice(m[0].length)}`;
}

/** A copy of settings with their secrets masked (empty ones stay empty: "none set" is not a secret). */
export function maskSettings(schema: TObject, settings: Record<string, unknown>): Record<string, unknown> {
  const out = { ...settings };
  for (const [key, kind] of secretFields(schema)) {
    const value = out[key];
    if (typeof value !== "string" || value === "") continue;
    out[key] = kind === "url" ? maskUrlPassword(value) : SECRET_MASK;
  }
  return out;
}

/**
 * The incoming settings with every secret the client sent back masked (or left out) taken from the stored ones, so a
 * form that read masked settings can save them unchanged.
 */
export function keepSecrets(schema: TObject, stored: Record<string, unknown>, incoming: Record<string, unknown>): Record<string, unknown> {
  const out = { ...incoming };
  for (const [key, kind] of secretFields(schema)) {
    const value = out[key];
    const kept = stored[key];
    if (typeof kept !== "string") continue;
    if (value === undefined) out[key] = kept;
    else if (kind === true && value === SECRET_MASK) out[key] = kept;
    else if (kind === "url" && typeof value === "string" && value !== kept && value === maskUrlPassword(kept)) out[key] = kept;
  }
  return out;
}

/** Every secret value in settings (for scrubbing error sentences and logs): passwords, and a URL's password part. */
export function secretValues(schema: TObject, settings: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [key, kind] of secretFields(schema)) {
    const value = settings[key];
    if (typeof value !== "string" || value === "") continue;
    if (kind === true) out.push(value);
    else {
      const m = /^[a-z][a-z0-9+.-]*:\/\/[^/@:]*:([^/@]*)@/i.exec(value);
      if (m?.[1]) out.push(m[1], decodeURIComponentSafe(m[1]));
    }
  }
  return out.filter((v) => v.length >= 3);
}

const decodeURIComponentSafe = (v: string): string => {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
};

/** An error sentence with any secret replaced by the mask: a driver may echo a connection string back. */
export function scrub(sentence: string, secrets: string[]): string {
  let out = sentence;
  for (const s of secrets) out = out.split(s).join(SECRET_MASK);
  return out;
}

/**
 * A type's words for the UI, in both languages (`<type>/i18n.ts` exports one; ui/i18n merges them under
 * monitors.settingsTypes.<type>): its name in the type list, one line on what a check does, and each settings
 * field's label and optional hint, by the field's name in the schema.
 */
export interface TypeLabels {
  name: string;
  description: string;
  fields: Record<string, { label: string; hint?: string }>;
  /** The options of a select field (a union of literals), by field then value, where the value is not its own label. */
  options?: Record<string, Record<string, string>>;
}
export type TypeI18n = { "en-US": TypeLabels; "zh-CN": TypeLabels };
