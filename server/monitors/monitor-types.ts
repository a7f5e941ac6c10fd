// The monitor types: which there are, which keep a typed settings object, which Vigil schedules, which agents run.
// UI-safe (no runtime dependencies); public.ts re-exports it.

/**
 * What a monitor checks (server/monitors/types/<type>/): each type decides up/down, response time and the error.
 * group: checks nothing; its state follows its members' (server/monitors/groups.ts).
 */
export type MonitorType = "http" | "tcp" | "dns" | "push" | "ping" | "group" | SettingsTypeName;
/**
 * The types added after the first five: each keeps its configuration in one typed `settings` object declared by its
 * module (server/monitors/types/<type>/settings.ts; settings-type.ts says how).
 */
export const SETTINGS_TYPE_NAMES = ["postgres", "mysql", "redis", "mongodb", "grpc", "websocket", "mqtt", "smtp", "imap", "pop3", "snmp", "ntp", "docker", "browser", "manual"] as const;
export type SettingsTypeName = (typeof SETTINGS_TYPE_NAMES)[number];
export const MONITOR_TYPES = ["http", "tcp", "dns", "push", "ping", "group", ...SETTINGS_TYPE_NAMES] as const satisfies readonly MonitorType[];
export const isSettingsType = (type: string): type is SettingsTypeName => (SETTINGS_TYPE_NAMES as readonly string[]).includes(type);
/**
 * Types whose state is not checked by Vigil on a clock: a group follows its members, a manual monitor what an operator
 * or an API call sets (POST /api/monitors/:id/manual).
 */
export const UNSCHEDULED_TYPES: readonly MonitorType[] = ["group", "manual"];
/**
 * Types an agent can check (the rest are checked from the Vigil server only, keeping their client libraries out of
 * the agent). A later type's module says the same in its runsOnAgents (a test keeps the two equal).
 */
export const AGENT_TYPES: readonly MonitorType[] = ["http", "tcp", "dns", "ping"];
export const runsOnAgents = (type: MonitorType): boolean => AGENT_TYPES.includes(type);
