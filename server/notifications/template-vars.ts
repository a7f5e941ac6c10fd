// The names a message template may use, shared by the server (validation) and the UI (the list beside the editor).
import type { NotificationEventKind } from "./public";

/** The kinds a channel may template (each with a title and a body). */
export const TEMPLATE_KINDS = ["down", "recovery", "reminder", "offline", "online", "cpu", "memory", "disk", "container", "budget", "test"] as const satisfies readonly NotificationEventKind[];

/** The monitor types the preview has a sample of: an HTTP monitor, and a later type's (target line, error code). */
export const SAMPLE_CHECK_TYPES = ["http", "postgres"] as const;
export type SampleCheckType = (typeof SAMPLE_CHECK_TYPES)[number];

/** Root variables and the fields of `target` and `facts`: what validation accepts (anything else is unknown). */
export const TEMPLATE_VARIABLES = {
  roots: ["kind", "status", "target", "reason", "time", "timestamp", "facts", "ackUrl", "title", "body", "severity", "lang", "events", "count"],
  target: ["type", "id", "name", "url"],
  facts: [
    "url",
    "target",
    "checkType",
    "errorCode",
    "port",
    "record",
    "resolver",
    "keyword",
    "jsonPath",
    "httpStatus",
    "error",
    "responseTime",
    "hostname",
    "usage",
    "threshold",
    "mountPoint",
    "lastSeen",
    "lastPush",
    "address",
    "downtime",
    "downtimeSeconds",
    "packets",
    "container",
    "image",
    "containerProblem",
    "containerState",
    "restarts",
    "windowMinutes",
    "objective",
    "objectiveDays",
    "budgetRemaining",
    "burnRate",
    "burnHours",
    "burnThreshold",
    "budgetState",
    "ackUrl",
  ],
} as const;
