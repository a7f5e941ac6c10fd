// The configuration file's shape as TypeBox schemas, built from the REST API's own request schemas
// (server/monitors/schemas.ts createBody), so the file takes the same field names, limits and messages as the API.
// The same object is the JSON Schema (draft 2020-12) served at GET /api/config/schema and kept in docs/.
import { t } from "elysia";
import type { TObject, TSchema } from "@sinclair/typebox";
import { LIMITS } from "../monitors/public";
import { createBody } from "../monitors/schemas";
import { TAG_COLOR_PATTERN } from "../tags/public";
import { key, keyRef } from "./schema-parts";
import { SECTION_DEFS } from "./sections";
import { notifyEntry } from "./sections/notify";

/** The file format's version: a file names it so a later format can tell old files apart. */
export const FORMAT_VERSION = 1;

/** The fields a monitor entry takes: the API's create body, its references (parentId, dependsOn) by key, and no legacy `interval`. */
const { parentId: _p, dependsOn: _d, interval: _i, ...monitorFields } = createBody.properties;

const references = {
  group: t.Optional(keyRef("group")),
  dependsOn: t.Optional(t.Array(keyRef("monitor or group"), { maxItems: LIMITS.maxDependencies, error: `dependsOn lists at most ${LIMITS.maxDependencies} keys of monitors or groups` })),
  notify: notifyEntry,
};

export const monitorEntry = t.Object(
  { key, ...(monitorFields as Record<string, TSchema>), ...references },
  { additionalProperties: false, description: "A monitor: the fields of POST /api/monitors (type-specific ones flat for http/tcp/dns/push/ping, in `settings` for the later types)." },
);

/** A group is a monitor of type "group": only what a group has. */
export const groupEntry = t.Object(
  {
    key,
    name: createBody.properties.name,
    active: createBody.properties.active,
    tags: createBody.properties.tags,
    groupRule: createBody.properties.groupRule,
    ...references,
  },
  { additionalProperties: false, description: "A group of monitors (a monitor of type group): its state follows its members." },
);

export const tagEntry = t.Object(
  {
    key,
    name: t.String({ minLength: 1, maxLength: LIMITS.tagLength, pattern: "^[^:]+$", error: `A tag name is 1-${LIMITS.tagLength} characters without a colon` }),
    color: t.String({ pattern: TAG_COLOR_PATTERN, error: "The colour must be #rrggbb (six hex digits)" }),
  },
  { additionalProperties: false, description: "A tag's colour (monitors carry tags as text: `name` or `name:value`)." },
);

const list = <T extends TObject>(entry: T, what: string) => t.Optional(t.Array(entry, { error: `${what} must be a list` }));

export const fileSchema = t.Object(
  {
    version: t.Literal(FORMAT_VERSION, { error: `version must be ${FORMAT_VERSION}` }),
    monitors: list(monitorEntry, "monitors"),
    groups: list(groupEntry, "groups"),
    tags: list(tagEntry, "tags"),
    ...Object.fromEntries(SECTION_DEFS.map((d) => [d.section, list(d.entry, d.section)])),
  },
  { additionalProperties: false },
);

/** The file's sections, each the kind its objects are (config_links.kind). */
export const SECTIONS = { monitors: "monitor", groups: "group", tags: "tag", channels: "channel", statusPages: "status_page", maintenance: "maintenance" } as const;
export type Section = keyof typeof SECTIONS;
export type Kind = (typeof SECTIONS)[Section];

/** The JSON Schema of the file for editors (yaml-language-server) and CI: the schema above as plain JSON. */
export function configJsonSchema(): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(fileSchema, (k, v) => (k === "error" ? undefined : v))) as Record<string, unknown>;
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://vigil.dev/schemas/config-v1.json",
    title: "Vigil configuration file",
    description: "Monitors, groups, tags, notification channels, status pages and maintenance windows as code: `vigil config apply <file>` or POST /api/config/apply. Strings may hold ${ENV_NAME} references, substituted on apply.",
    ...plain,
  };
}
