// Export: the database's monitors, groups, tag colours, channels, status pages and maintenance windows as one
// configuration file, defaults left out, secrets as
// ${ENV_NAME} references (never in clear unless `withSecrets`). Applying the export to the same instance changes
// nothing and makes its objects managed (state.ts gives unmanaged objects the keys written here).
import { stringify } from "yaml";
import type { Orm } from "../db/database";
import type { Tables } from "../db/pg-schema";
import type { TargetPolicy } from "../net/targets";
import { createResolver, shorten, type Form } from "./model";
import { secretsOf, sectionOf } from "./sections";
import { shortNotify } from "./sections/notify";
import { FORMAT_VERSION, SECTIONS, type Kind, type Section } from "./schema";
import { HASHED } from "./sections/section";
import { readState } from "./state";

/** The variable a secret is read from: VIGIL_<KIND>_<KEY>_<FIELD>, e.g. VIGIL_MONITOR_SHOP_DB_PASSWORD. */
export function envName(kind: Kind, key: string, field: string): string {
  const snake = field.replace(/([a-z0-9])([A-Z])/g, "$1_$2");
  return `VIGIL_${kind}_${key}_${snake}`.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
}

/** A connection string's password part replaced (postgres://u:${X}@db/app); the whole value for other secrets. */
function reference(value: string, how: true | "url", name: string): string {
  if (how === true) return `\${${name}}`;
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/@:]*:)([^/@]*)(@.*)$/i.exec(value);
  return m ? `${m[1]}\${${name}}${m[3]}` : value;
}

export interface ExportResult {
  yaml: string;
  /** The environment variables the file's secrets are read from on apply. */
  variables: string[];
}

export async function exportConfig(orm: Orm, t: Tables, { withSecrets = false, policy }: { withSecrets?: boolean; policy: TargetPolicy }): Promise<ExportResult> {
  const state = await readState(orm, t);
  const resolver = createResolver(policy);
  const variables: string[] = [];
  const doc: Record<string, unknown> = { version: FORMAT_VERSION };
  try {
    const ctx = { policy, monitorKeys: new Set<string>(), now: Date.now() };
    for (const section of ["tags", "channels", "groups", "monitors", "statusPages", "maintenance"] as Section[]) {
      const kind = SECTIONS[section];
      const def = sectionOf(kind);
      const entries: Form[] = [];
      for (const o of state.objects.filter((x) => x.kind === kind)) {
        if (!o.link && o.row && def?.pristine?.(o.row)) continue;
        let entry: Form = def?.keyField === "slug" ? { ...o.form } : { key: o.key, ...o.form };
        if (def) entry = await def.shorten(entry, { ...ctx, current: o.row });
        else if (kind !== "tag") entry = shorten(kind as "monitor" | "group", entry, resolver);
        if (entry.group === null) delete entry.group;
        if (Array.isArray(entry.dependsOn) && entry.dependsOn.length === 0) delete entry.dependsOn;
        if (entry.notify === null) delete entry.notify;
        else if (entry.notify) entry.notify = shortNotify(entry.notify as Form);
        entry = withReferences(kind, o.key, entry, o.form, variables, withSecrets);
        entries.push(entry);
      }
      if (entries.length) doc[section] = entries;
    }
  } finally {
    await resolver.close();
  }
  const header = [
    "# yaml-language-server: $schema=/api/config/schema",
    "# Vigil configuration: vigil config apply <file> (docs/config-as-code.md)",
    ...(variables.length ? ["# Secrets are read from these environment variables when applied:", ...variables.map((v) => `#   ${v}`)] : []),
  ];
  return { yaml: `${header.join("\n")}\n${stringify(doc, { lineWidth: 0 })}`, variables };
}

/**
 * The entry with each non-empty secret replaced by its ${ENV} reference (unless `withSecrets`; a secret the database
 * keeps only hashed — a status page's password, read back as HASHED — is a reference even then).
 */
function withReferences(kind: Kind, key: string, entry: Form, full: Form, variables: string[], withSecrets: boolean): Form {
  const out = structuredClone(entry);
  for (const [path, how] of secretsOf(kind, full)) {
    const parts = path.split(".");
    const field = parts.at(-1)!;
    const holder = (parts.length === 1 ? out : out[parts[0]!]) as Form | undefined;
    const value = holder?.[field];
    if (typeof value !== "string" || value === "") continue;
    if (withSecrets && !value.startsWith(HASHED)) continue;
    const name = envName(kind, key, field);
    const replaced = reference(value.startsWith(HASHED) ? "" : value, how, name);
    if (replaced === value) continue;
    holder![field] = replaced;
    variables.push(name);
  }
  return out;
}
