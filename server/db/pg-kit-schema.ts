// For drizzle-kit only (drizzle.pg.config.ts): it finds tables among a module's top-level exports, so the derived
// PostgreSQL tables are exported one by one here. server/db/pg-schema.test.ts checks that none is missing.
import { pgTables as t } from "./pg-schema";

export const users = t.users;
export const settings = t.settings;
export const monitors = t.monitors;
export const checkResults = t.checkResults;
export const monitorHourly = t.monitorHourly;
export const monitorDaily = t.monitorDaily;
export const agents = t.agents;
export const agentTokens = t.agentTokens;
export const agentSamples = t.agentSamples;
export const agentMinutely = t.agentMinutely;
export const agentHourly = t.agentHourly;
export const invites = t.invites;
export const notificationChannels = t.notificationChannels;
export const notificationOverrides = t.notificationOverrides;
export const notificationAlerts = t.notificationAlerts;
export const notificationEvents = t.notificationEvents;
export const notificationMessages = t.notificationMessages;
export const statusPage = t.statusPage;
export const statusPageMonitors = t.statusPageMonitors;
export const statusPageAgents = t.statusPageAgents;
export const apiTokens = t.apiTokens;
export const clusterNodes = t.clusterNodes;
export const clusterLeases = t.clusterLeases;
export const loginFailures = t.loginFailures;
export const maintenanceWindows = t.maintenanceWindows;
export const maintenanceMonitors = t.maintenanceMonitors;
export const maintenanceAgents = t.maintenanceAgents;
export const incidents = t.incidents;
export const incidentUpdates = t.incidentUpdates;
export const incidentMonitors = t.incidentMonitors;
export const incidentAgents = t.incidentAgents;
export const incidentPages = t.incidentPages;
export const statusSubscribers = t.statusSubscribers;
export const statusNotices = t.statusNotices;
