/** The most samples one agent report may carry (shared by the agent and the server's schema). */
export const MAX_SAMPLES_PER_REPORT = 500;

/** Most containers one report lists (the rest are left out, and the snapshot says how many there were). */
export const MAX_CONTAINERS = 200;
