import { t } from "elysia";
import type { TSchema } from "@sinclair/typebox";
import { GROUP_RULE_VALUES, MONITOR_TYPE_VALUES } from "../db/schema";
import { idField, idParams } from "../http/ids";
import { documentedAs } from "../http/openapi";
import { SORT_KEYS, STATUS_FILTERS } from "./list-view";
import { LIMITS, SERIES_RANGES } from "./public";
import { SETTINGS_SCHEMA_NAME } from "./openapi-schemas";
import { FIRST_TYPE_FIELDS } from "./types/first-settings";
import { STATUS_MESSAGE } from "./types/http/settings";
import { PUSH_PING_MAX_MS } from "./types/push/push";

// The field shape and the rules past the schemas live in field-rules.ts (no elysia or database, for the agent).
export {
  checkUrl,
  defaultFields,
  normaliseTags,
  resolveFields,
  validateHttpFields,
  type MonitorFields,
  type MonitorChange,
  type MonitorPatch,
} from "./field-rules";

// Request schemas for the monitor routes. Messages are the ones a user sees (the UI translates by `code`).

const SECONDS_RANGE = `a whole number of seconds from ${LIMITS.minIntervalSeconds} to ${LIMITS.maxIntervalSeconds}`;
const intervalSeconds = t.Integer({
  minimum: LIMITS.minIntervalSeconds,
  maximum: LIMITS.maxIntervalSeconds,
  error: `intervalSeconds must be ${SECONDS_RANGE}`,
  description: "Seconds between checks (1-86400).",
});
// Whether the minutes are whole seconds is checked in resolveFields (a schema cannot say it).
const INTERVAL_MESSAGE = `Interval must be a number of minutes up to ${LIMITS.maxInterval} that is a whole number of seconds (0.5 = 30 s)`;
const TIMEOUT_MESSAGE = `Timeout must be a number of seconds from ${LIMITS.minTimeout} to ${LIMITS.maxTimeout}`;

const fields = {
  name: t.String({ minLength: 1, maxLength: LIMITS.nameLength, error: `Name is required (at most ${LIMITS.nameLength} characters)` }),
  intervalSeconds,
  retryIntervalSeconds: t.Union([t.Null(), intervalSeconds], {
    error: `retryIntervalSeconds must be null or ${SECONDS_RANGE}`,
    description: "Seconds between checks while a failure is retried (failing, within retries); null: intervalSeconds.",
  }),
  interval: t.Number({
    exclusiveMinimum: 0,
    maximum: LIMITS.maxInterval,
    error: INTERVAL_MESSAGE,
    description: "The interval in minutes, for older clients (intervalSeconds / 60); both given must agree.",
  }),
  timeout: t.Number({
    minimum: LIMITS.minTimeout,
    maximum: LIMITS.maxTimeout,
    error: TIMEOUT_MESSAGE,
    description: "Seconds (fractions allowed, kept to the millisecond), shorter than the interval and the retry interval.",
  }),
  active: t.Boolean({ error: "active must be true or false" }),
  retries: t.Integer({ minimum: 0, maximum: LIMITS.maxRetries, error: `Retries must be a whole number from 0 to ${LIMITS.maxRetries}` }),
  type: t.Union(
    MONITOR_TYPE_VALUES.map((v) => t.Literal(v)),
    { error: `Type must be one of ${MONITOR_TYPE_VALUES.join(", ")}` },
  ),
  tags: t.Array(t.String({ maxLength: 200, error: "Each tag must be text" }), {
    maxItems: LIMITS.maxTags,
    error: `At most ${LIMITS.maxTags} tags, each 1-${LIMITS.tagLength} characters`,
  }),
  upsideDown: t.Boolean({ error: "upsideDown must be true or false" }),
  objective: t.Union([t.Null(), t.Number({ minimum: LIMITS.minObjective, maximum: LIMITS.maxObjective })], {
    error: `objective must be null or a percentage from ${LIMITS.minObjective} to ${LIMITS.maxObjective}`,
  }),
  objectiveDays: t.Integer({
    minimum: LIMITS.minObjectiveDays,
    maximum: LIMITS.maxObjectiveDays,
    error: `objectiveDays must be a whole number of days from ${LIMITS.minObjectiveDays} to ${LIMITS.maxObjectiveDays}`,
  }),
  dependsOn: t.Array(t.Integer({ minimum: 1, error: "dependsOn must list monitor ids" }), {
    maxItems: LIMITS.maxDependencies,
    error: `dependsOn must list at most ${LIMITS.maxDependencies} monitor ids`,
  }),
  // Whether the id names a group is checked by the service (groups.ts), which knows the monitors.
  parentId: t.Union([t.Null(), t.Integer({ minimum: 1 })], { error: "parentId must be the id of a group, or null" }),
  groupRule: t.Union(
    GROUP_RULE_VALUES.map((v) => t.Literal(v)),
    { error: `groupRule must be one of ${GROUP_RULE_VALUES.join(", ")}` },
  ),
};

/**
 * The first five types' fields, flat as the API has always taken them, declared by the types' settings schemas
 * (types/<type>/settings.ts) with their limits and messages. Their defaults are left to resolveFields: a PUT's
 * absent field keeps its value (elysia would fill a schema's default in).
 */
const typeFields = Object.fromEntries(
  Object.entries(FIRST_TYPE_FIELDS).map(([key, schema]) => {
    const { default: _, ...declared } = schema;
    return [key, t.Optional(declared as TSchema)];
  }),
);
// A client sending the number 200 means the code 200: taken as the text "200" rather than refused.
typeFields.expectedStatus = t.Optional(
  t
    .Transform(t.Union([t.String({ minLength: 1, maxLength: 200 }), t.Integer({ minimum: 100, maximum: 599 })], { error: STATUS_MESSAGE }))
    .Decode((value) => String(value))
    .Encode((value) => value),
);

/** POST /api/monitors: name required (and what the type needs: url, host and port…), the rest defaulted. */
export const createBody = t.Object({
  name: fields.name,
  type: t.Optional(fields.type),
  tags: t.Optional(fields.tags),
  intervalSeconds: t.Optional(fields.intervalSeconds),
  retryIntervalSeconds: t.Optional(fields.retryIntervalSeconds),
  interval: t.Optional(fields.interval),
  timeout: t.Optional(fields.timeout),
  active: t.Optional(fields.active),
  retries: t.Optional(fields.retries),
  upsideDown: t.Optional(fields.upsideDown),
  objective: t.Optional(fields.objective),
  objectiveDays: t.Optional(fields.objectiveDays),
  dependsOn: t.Optional(fields.dependsOn),
  parentId: t.Optional(fields.parentId),
  groupRule: t.Optional(fields.groupRule),
  ...typeFields,
  // Each later type's settings are checked by its own schema (GET /api/monitors/types), after the type is known.
  settings: t.Optional(
    t.Record(t.String(), t.Unknown(), {
      error: "settings must be an object of the type's settings",
      description: "The later types' own settings (postgres, redis, manual…), by the monitor's `type`: each type's JSON Schema is documented here and given by GET /api/monitors/types.",
      ...documentedAs(SETTINGS_SCHEMA_NAME),
    }),
  ),
});

/** PUT /api/monitors/:id: any subset; absent fields keep their value (so `{ "active": false }` pauses). */
export const updateBody = t.Partial(createBody);

export const monitorIdParams = idParams("monitor");

/** GET /api/monitors/:id/screenshots/:time: a check's start time (Unix ms). */
export const screenshotParams = t.Object({
  id: idField("monitor"),
  time: t
    .Transform(t.String({ pattern: "^[0-9]{1,15}$", error: "Invalid screenshot time" }))
    .Decode((value) => Number(value))
    .Encode((value) => String(value)),
});

/** POST /api/monitors/:id/manual: a manual monitor's state, with an optional note shown as its error when down. */
export const manualBody = t.Object({
  status: t.Union([t.Literal("up"), t.Literal("down")], { error: "status must be up or down" }),
  message: t.Optional(t.Union([t.Null(), t.String({ maxLength: 200, error: "message must be text of at most 200 characters" })])),
});

/** A token that cannot be one is answered like an unknown one (404), not as a validation error. */
export const pushParams = t.Object({ token: t.String({ maxLength: 64 }) });
export const pushQuery = t.Object({
  status: t.Optional(t.Union([t.Literal("up"), t.Literal("down")], { error: "status must be up or down" })),
  // Any length: a failing job's long message must not cost its failure. The first PUSH_MESSAGE_LENGTH characters are
  // kept (push.ts); the server's request-line limit bounds what is read at all.
  msg: t.Optional(t.String({ error: "msg must be text" })),
  // A whole number in the range charts and the in-memory ring (Int32Array) hold: anything else is refused, not stored.
  ping: t.Optional(t.Integer({ minimum: 0, maximum: PUSH_PING_MAX_MS, error: `ping must be a whole number of milliseconds from 0 to ${PUSH_PING_MAX_MS}` })),
});

/** The most monitors one call for recent checks may name: the list asks for the rows in view (a few dozen). */
export const RECENT_IDS_MAX = 200;

export const recentChecksQuery = t.Object({
  ids: t.Optional(
    t
      .Transform(
        t.String({
          pattern: `^[1-9][0-9]{0,14}(,[1-9][0-9]{0,14}){0,${RECENT_IDS_MAX - 1}}$`,
          error: `ids must be up to ${RECENT_IDS_MAX} monitor ids separated by commas`,
        }),
      )
      .Decode((value) => value.split(",").map(Number))
      .Encode((ids) => ids.join(",")),
  ),
});

/** The most rows one page of the monitor list may ask for (a screen asks for what it shows plus a margin). */
export const LIST_PAGE_MAX = 500;
const LIST_Q_MAX = 200;
const LIST_TAGS_MAX = 20;

export const listPageQuery = t.Object({
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 100_000_000, error: "offset must be a whole number from 0" })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: LIST_PAGE_MAX, error: `limit must be a whole number from 1 to ${LIST_PAGE_MAX}` })),
  q: t.Optional(t.String({ maxLength: LIST_Q_MAX, error: `q must be text of up to ${LIST_Q_MAX} characters` })),
  status: t.Optional(t.Union(STATUS_FILTERS.map((s) => t.Literal(s)), { error: `status must be one of ${STATUS_FILTERS.join(", ")}` })),
  sort: t.Optional(t.Union(SORT_KEYS.map((s) => t.Literal(s)), { error: `sort must be one of ${SORT_KEYS.join(", ")}` })),
  dir: t.Optional(t.Union([t.Literal("asc"), t.Literal("desc")], { error: "dir must be asc or desc" })),
  tag: t.Optional(t.Array(t.String({ minLength: 1, maxLength: 100 }), { maxItems: LIST_TAGS_MAX, error: `tag must be up to ${LIST_TAGS_MAX} tags` })),
  collapsed: t.Optional(
    t.String({ pattern: "^([1-9][0-9]{0,14}(,[1-9][0-9]{0,14}){0,999})?$", error: "collapsed must be up to 1000 group ids separated by commas" }),
  ),
});

export const seriesQuery = t.Object({
  range: t.Optional(t.Union(SERIES_RANGES.map((r) => t.Literal(r)), { error: `range must be ${SERIES_RANGES.slice(0, -1).join(", ")} or ${SERIES_RANGES.at(-1)}` })),
});
