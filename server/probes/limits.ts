// The wire limits of checks from agents, without imports: the agent reads them without bundling the server's
// validation (server/probes/protocol.ts builds its schemas from them).

/** Most results one call may carry; an agent with more sends several calls. */
export const MAX_PROBE_RESULTS = 1000;
/** Longest error sentence kept from an agent. */
export const MAX_PROBE_ERROR = 500;
/** The longest response time taken from an agent (ms). */
export const MAX_PROBE_RESPONSE_MS = 3_600_000;
