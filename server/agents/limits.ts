/** The most samples one agent report may carry (shared by the agent and the server's schema). */
export const MAX_SAMPLES_PER_REPORT = 500;
