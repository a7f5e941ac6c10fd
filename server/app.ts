import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { Elysia } from "elysia";
import { createPasswordHasher, type PasswordHasher } from "./auth/passwords";
import { defaultLoginLimits, type LoginLimits } from "./auth/rate-limit";
import { authRoutes } from "./auth/routes";
import { sessions } from "./auth/session";
import { createSessionWatch } from "./auth/session-watch";
import type { Config } from "./config";
import type { Db } from "./db/open";
import { createCluster, type Cluster, type ClusterOptions } from "./cluster/service";
import { clusterRoutes } from "./cluster/routes";
import { backupRoutes } from "./backup/routes";
import { createEventBus, type EventBus } from "./events";
import { ALLOW_PRIVATE, hostProblem, type TargetPolicy } from "./net/targets";
import { errorHandling } from "./http/errors";
import { requestLog } from "./http/request-log";
import { apiDocs, doc } from "./http/openapi";
import { security } from "./http/security";
import { gzipReplies } from "./http/compression";
import { defaultUiDir, uiRoutes } from "./http/ui";
import { silentLogger, type Logger } from "./log";
import { defaultAgentsDir, downloadRoutes } from "./agents/downloads";
import { agentRoutes } from "./agents/routes";
import { dashboardRoutes } from "./dashboard/routes";
import { metricsRoutes } from "./metrics/routes";
import { AgentService } from "./agents/service";
import { createAgentStore } from "./agents/store";
import { createLive, type Live } from "./monitors/live";
import { monitorSchemas } from "./monitors/openapi-schemas";
import { monitorRoutes, pushRoutes } from "./monitors/routes";
import { createMonitorService, type MonitorService, type MonitorServiceOptions } from "./monitors/service";
import { createUserStore, type UserStore } from "./users/store";
import { userRoutes } from "./users/routes";
import { createRegistration } from "./registration/service";
import { registrationRoutes } from "./registration/routes";
import { VERSION } from "./version";
import { createNotificationService, SEND_TIMEOUT_MS, type NotificationService, type NotificationServiceOptions } from "./notifications/service";
import { notificationRoutes } from "./notifications/routes";
import { contactRoutes } from "./contacts/routes";
import { createStatusService, type StatusService } from "./status/service";
import { statusRoutes } from "./status/routes";
import { statusPageRoutes } from "./status/pages";
import { createTokenStore } from "./tokens/store";
import { createMaintenanceService, type MaintenanceService } from "./maintenance/service";
import { maintenanceRoutes } from "./maintenance/routes";
import { monitorsLeftUnseen } from "./maintenance/restart";
import { createProbeService, type ProbeService } from "./probes/service";
import { probeRoutes } from "./probes/routes";
import { createIncidentService, type IncidentService } from "./incidents/service";
import { incidentRoutes } from "./incidents/routes";
import { tokenRoutes } from "./tokens/routes";
import { requireCode, twoFactorRoutes } from "./auth/two-factor/routes";
import { createTwoFactor } from "./auth/two-factor/service";
import { createSsoAccounts } from "./auth/sso/accounts";
import { createOidcProvider } from "./auth/sso/provider";
import { ssoRoutes } from "./auth/sso/routes";
import { createSsoService } from "./auth/sso/service";
import { createSsoSettings } from "./auth/sso/settings";
import { subscriberRoutes } from "./subscribers/routes";
import { tagRoutes } from "./tags/routes";
import { afterImport } from "./import/after-import";
import { importRoutes } from "./import/routes";
import { exportRoutes } from "./exports/routes";
import { reportRoutes } from "./reports/routes";
import { createObjectives, type ObjectivesService } from "./objectives/service";
import { objectiveRoutes } from "./objectives/routes";
import { createPeople } from "./escalation/people";
import { createPolicyStore } from "./escalation/policies";
import { escalationRoutes } from "./escalation/routes";
import { createEscalation, type EscalationService } from "./escalation/service";
import { oncallRoutes } from "./oncall/routes";
import { createOnCallStore, type OnCallStore } from "./oncall/store";
import { configRoutes } from "./config-file/routes";
import { reportScheduleRoutes } from "./reports/schedule-routes";
import { createReportScheduleService, type ReportScheduleOptions, type ReportScheduleService } from "./reports/schedules";
import { createTagStore } from "./tags/store";
import { createSubscriberService, type SubscriberService } from "./subscribers/service";
import { createPushService, type PushService, type PushServiceOptions } from "./push/service";
import { webPushRoutes } from "./push/routes";
import { createAckLinks } from "./problems/links";
import { problemRoutes } from "./problems/routes";
import { createProblems, type Problems } from "./problems/service";

export interface AppDeps {
  db: Db;
  jwtSecret: string;
  config: Pick<Config, "tokenTtl" | "trustProxy" | "links"> & Partial<Pick<Config, "agentsDir" | "publicUrl" | "sso" | "passwordHashMemoryMib">>;
  log?: Logger;
  passwords?: PasswordHasher;
  limits?: LoginLimits;
  /** The clock two-factor codes are judged by (tests fix it). */
  clock?: () => number;
  /** Built UI directory; defaults to the embedded or dist/ui one. */
  uiDir?: string;
  /** Re-read the UI when it is rebuilt (npm run dev). */
  uiLive?: boolean;
  /** The long-lived services (createServices), built over the same database and left stopped. */
  services: Services;
}

/**
 * The long-lived parts behind the HTTP app: the event bus, users (whose changes are events), monitors (scheduler,
 * writer, history), agents, live push.
 */
export interface Services {
  events: EventBus;
  users: UserStore;
  monitors: MonitorService;
  agents: AgentService;
  live: Live;
  notifications: NotificationService;
  /** Open problems and acknowledging them (server/problems/). */
  problems: Problems;
  status: StatusService;
  maintenance: MaintenanceService;
  incidents: IncidentService;
  subscribers: SubscriberService;
  objectives: ObjectivesService;
  /** Monitors checked from agents. */
  probes: ProbeService;
  /** Reports mailed every month. */
  reports: ReportScheduleService;
  /** Web Push: the devices people turned push on for, and the server's VAPID keys. */
  push: PushService;
  /** Escalation policies paging open problems step by step. */
  escalation: EscalationService;
  /** On-call schedules: who is on call in each, now and at any time (server/oncall/). */
  oncall: OnCallStore;
  /** This node's place among the processes sharing the database (alone on SQLite). */
  cluster: Cluster;
  /** What an import from the admin screen must respect: the address policy and the raw retention. */
  importOptions: { targets: TargetPolicy; rawRetentionDays: number };
}

/**
 * Builds the services over a database and loads what they keep in memory. Nothing starts: main.ts starts and stops
 * them through server/lifecycle.ts; tests start them only when they want timers (or drive them with a fake clock).
 */
export async function createServices(
  db: Db,
  {
    log = silentLogger,
    monitors = {},
    agentTokenTtlMs,
    notifications = {},
    now,
    targets,
    node = "local",
    cluster: clusterTuning = {},
    minuteMs,
    reports: reportTuning = {},
    push: pushOptions = {},
    secret = randomBytes(48).toString("base64url"),
  }: {
    /** Web Push (tests let devices use a local http push service). */
    push?: Pick<PushServiceOptions, "allowLoopbackHttp">;
    /**
     * The session secret (main.ts passes it): it signs the acknowledgement links alerts carry. Tests that build the
     * services alone get a random one, good for this process.
     */
    secret?: string;
    /** The monthly report mails' tick and clock (real-clock tests shorten the one and move the other). */
    reports?: Pick<ReportScheduleOptions, "tickMs" | "now">;
    /**
     * How long a minute of the settings is (check intervals, push silence, reminders): 60 000. Real-clock tests of
     * the wired server shorten it, the clocks themselves untouched.
     */
    minuteMs?: number;
    /** Lease and catch-up timings (tests shorten them). */
    cluster?: Pick<ClusterOptions, "leaseMs" | "tickMs" | "catchUpDelayMs">;
    /** This node's name (--node-name). */
    node?: string;
    log?: Logger;
    monitors?: Omit<MonitorServiceOptions, "db" | "bus" | "log">;
    agentTokenTtlMs?: number;
    notifications?: Pick<NotificationServiceOptions, "send" | "publicUrl">;
    /** The clock of agents and notifications (tests move it; monitors take theirs in `monitors.clock`). */
    now?: () => number;
    /** Which addresses monitors and webhooks may reach (private ones unless --block-private-targets). */
    targets?: TargetPolicy;
  } = {},
): Promise<Services> {
  const events = createEventBus(log);
  const users = createUserStore(db, {
    onChange: (userId, kind, user) => events.emit("user.change", { userId, kind, ...(user && { user: { status: user.status, sessionVersion: user.sessionVersion, role: user.role } }) }),
  });
  // Maintenance first: which targets are in maintenance is known before the first check is recorded. Its lists of
  // every monitor and agent are read only when an instance-wide window starts or ends.
  let monitorRef: MonitorService | null = null;
  let agentRef: AgentService | null = null;
  const maintenance = createMaintenanceService({
    db,
    bus: events,
    log,
    clock: monitors.clock,
    monitorIds: () => monitorRef?.store.all().map((e) => e.id) ?? [],
    agentIds: () => agentRef?.list().map((a) => a.id) ?? [],
    exists: (type, id) => (type === "monitor" ? monitorRef?.store.get(id) !== undefined : agentRef?.get(id) !== undefined),
    leftUnseen: () => monitorsLeftUnseen(db, monitorService, maintenance.monitor),
    groups: { ancestors: (id) => monitorRef?.groups.ancestors(id) ?? [], descendants: (id) => monitorRef?.groups.descendants(id) ?? [] },
  });
  await maintenance.load();
  const monitorService = (monitorRef = createMonitorService({ db, bus: events, log, targets, maintenance: maintenance.monitor, minuteMs, ...monitors }));
  await monitorService.load();
  const agentService = (agentRef = await AgentService.create({
    store: createAgentStore(db),
    log,
    tokenTtlMs: agentTokenTtlMs,
    now,
    // Marked when the agent is in maintenance: nothing is notified for it (server/notifications/rules.ts).
    onStatus: (e) => events.emit("agent.status", maintenance.agent(e.agentId) ? { ...e, maintenance: true } : e),
    onReport: (state) => events.has("agent.report") && events.emit("agent.report", state),
    onContainers: (state, containers) =>
      events.has("agent.containers") && events.emit("agent.containers", { agentId: state.id, name: state.name, hostname: state.hostname, containers }),
    onChange: (agentId, kind) => events.emit("agent.change", { agentId, kind }),
  }));
  const probes = createProbeService({
    db,
    bus: events,
    monitors: monitorService,
    agents: agentService,
    targets: targets ?? ALLOW_PRIVATE,
    now,
    log,
    retentionMs: (monitors.rawRetentionDays ?? 7) * 86_400_000,
    chores: () => cluster.leads(),
  });
  await probes.load();
  const cluster = createCluster({
    db,
    node,
    version: VERSION,
    monitors: monitorService,
    agents: agentService,
    bus: events,
    log,
    // Monitors gained from a node that stopped may have left a window meanwhile: told before their first check here.
    onGained: () => maintenance.catchUp(),
    ...clusterTuning,
  });
  const incidents = createIncidentService({
    db,
    bus: events,
    now,
    exists: (type, id) => (type === "monitor" ? monitorService.store.get(id) !== undefined : agentService.get(id) !== undefined),
    // Read directly: the status service is built after this one (it shows incidents).
    pageExists: async (id) => (await db.orm.select({ id: db.t.statusPage.id }).from(db.t.statusPage).where(eq(db.t.statusPage.id, id))).length > 0,
  });
  const push = createPushService({ db, now, publicUrl: notifications.publicUrl, targets, ...pushOptions });
  const ackLinks = createAckLinks({ secret, now });
  const oncall = createOnCallStore({ db, now });
  // A person is paged through their enabled personal contact channels (asked when a step fires: the notification
  // service is built below).
  const people = createPeople(db, {
    scheduleNames: oncall.names,
    onCallAt: oncall.onCallAt,
    contactChannelsOf: (userIds) => notificationService.store.contactChannelsOf(userIds),
  });
  const policies = createPolicyStore({
    db,
    now,
    people,
    monitorOf: (id) => {
      const m = monitorService.get(id);
      return m ? { ancestors: monitorService.groups.ancestors(id), tags: m.tags, isGroup: m.type === "group" } : null;
    },
  });
  const notificationService = createNotificationService({
      db,
      bus: events,
      log,
      ackLinks,
      ...notifications,
      // The webpush provider's devices and keys; a test's own `send` may still replace them.
      send: { push: push.context, ...notifications.send },
      now,
      node,
      minuteMs,
      // With several nodes: agent thresholds judged by the agent's owner, reminders sent by the leader.
      decides: { monitor: (id) => cluster.owns(id), agent: (id) => cluster.owns(id), reminders: () => cluster.leads() },
      targets,
      monitorNow: (id) => {
        const m = monitorService.get(id);
        return m && {
          name: m.name,
          down: m.active && m.status === "down",
          up: m.active && m.status === "up",
          unreachable: m.unreachable !== null,
          facts: { url: m.target, checkType: m.type, httpStatus: m.httpStatus, error: m.lastError, responseTime: m.responseTime },
        };
      },
      dependentsOf: (id) => monitorService.dependentsOf(id),
      agentNow: (id) => {
        const a = agentService.get(id);
        return a && { name: a.name, status: a.status, lastSeenAt: a.lastSeenAt };
      },
      inMaintenance: maintenance.inMaintenance,
      escalates: async (type, id) => (await policies.resolve(type, id)) !== null,
  });
  const escalation = createEscalation({ db, bus: events, outbox: notificationService.outbox, channels: notificationService.store, alerts: notificationService.alerts, policies, people, leads: () => cluster.leads(), inMaintenance: maintenance.inMaintenance, now, minuteMs, log });
  const problems = createProblems({
    alerts: notificationService.alerts,
    links: ackLinks,
    channelName: async (id) => (await notificationService.store.channelForSending(id))?.name,
    now,
  });
  const status = createStatusService({ db, bus: events, monitors: monitorService, agents: agentService, maintenance, incidents, locations: probes.publicLocations, now });
  const subscribers = createSubscriberService({
    db,
    bus: events,
    log,
    now,
    pages: status.pages,
    settings: () => notificationService.store.getSettings(),
    send: { timeoutMs: notifications.send?.timeoutMs ?? SEND_TIMEOUT_MS, hostProblem: (host) => hostProblem(host, targets ?? ALLOW_PRIVATE) },
    leads: () => cluster.leads(),
  });
  const objectives = createObjectives({ db, bus: events, log, monitors: monitorService, groups: monitorService.groups, leads: () => cluster.leads(), now, tickMs: minuteMs });
  // With several nodes the leader mails, as it runs the rollups the reports wait for.
  const reports = createReportScheduleService({
    db,
    log,
    deps: { db, monitors: monitorService, groups: monitorService.groups, maintenance, statusPages: status },
    leads: () => cluster.leads(),
    send: { timeoutMs: notifications.send?.timeoutMs ?? SEND_TIMEOUT_MS, hostProblem: (host) => hostProblem(host, targets ?? ALLOW_PRIVATE) },
    ...reportTuning,
  });
  return {
    events,
    users,
    cluster,
    objectives,
    reports,
    push,
    escalation,
    oncall,
    monitors: monitorService,
    notifications: notificationService,
    problems,
    agents: agentService,
    maintenance,
    incidents,
    status,
    subscribers,
    probes,
    importOptions: { targets: targets ?? ALLOW_PRIVATE, rawRetentionDays: monitors.rawRetentionDays ?? 7 },
    live: createLive({ bus: events, sessionWatch: createSessionWatch({ bus: events, users }), log }),
  };
}

/** The whole HTTP application. Tests build it over an in-memory database and call `app.handle(request)`. */
export function createApp(deps: AppDeps) {
  const log = deps.log ?? silentLogger;
  const services = deps.services;
  const users = services.users;
  const memoryMib = deps.config.passwordHashMemoryMib;
  const passwords = deps.passwords ?? createPasswordHasher(memoryMib ? { memoryCost: memoryMib * 1024 } : {});
  const tokens = createTokenStore(deps.db);
  const twoFactor = createTwoFactor(deps.db, deps.clock);
  void twoFactor.required().catch(() => {}); // the policy cached before the first request
  const limits = deps.limits ?? defaultLoginLimits(deps.db);
  const session = sessions({ secret: deps.jwtSecret, ttl: deps.config.tokenTtl, users, tokens, twoFactorRequired: twoFactor.requiredNow });
  const registration = createRegistration({ db: deps.db, users });
  const ssoSettings = createSsoSettings(deps.db, deps.config.sso);
  const ssoProvider = createOidcProvider();
  const ssoAccounts = createSsoAccounts({ db: deps.db, users, passwords, log });
  const sso = createSsoService({ db: deps.db, settings: ssoSettings, provider: ssoProvider, accounts: ssoAccounts, users, log });
  const passwordLogin = async () => (await ssoSettings.effective()).passwordLogin;

  // What data comes in and goes out as a whole (backup, imports, configuration files, exports, reports, budgets): one
  // plugin, which also keeps the app's route chain short enough for TypeScript to type.
  const dataRoutes = new Elysia()
    .use(backupRoutes({ db: deps.db, session, log }))
    .use(importRoutes({ db: deps.db, session, log, options: services.importOptions, onImported: afterImport(services) }))
    .use(configRoutes({ db: deps.db, session, log, policy: services.importOptions.targets, onApplied: afterImport(services) }))
    .use(exportRoutes({ db: deps.db, monitors: services.monitors, agents: services.agents, session }))
    .use(objectiveRoutes({ monitors: services.monitors, objectives: services.objectives, session }))
    .use(escalationRoutes({ escalation: services.escalation, session, exists: (type, id) => (type === "monitor" ? services.monitors.get(id) : services.agents.get(id)) !== undefined }))
    .use(oncallRoutes({ oncall: services.oncall, session }))
    .use(
      reportRoutes({
        db: deps.db,
        session,
        monitors: services.monitors,
        groups: services.monitors.groups,
        maintenance: services.maintenance,
        statusPages: services.status,
        defaultZone: async () => (await services.notifications.store.getSettings()).timeZone,
      }),
    )
    .use(
      reportScheduleRoutes({
        schedules: services.reports,
        session,
        defaultLanguage: async () => (await services.notifications.store.getSettings()).language,
      }),
    );
  return new Elysia()
    .use(requestLog(log, deps.config.trustProxy))
    .use(errorHandling(log))
    .use(security({ trustProxy: deps.config.trustProxy }))
    .use(gzipReplies())
    .use(apiDocs(monitorSchemas()))
    // For load balancers and service managers: 200 once the database answers and the checks run.
    .get("/healthz", async ({ set }) => {
      let ok = services.monitors.running;
      try {
        await deps.db.ping();
      } catch {
        ok = false;
      }
      set.status = ok ? 200 : 503;
      const cluster = services.cluster.health();
      return ok ? { success: true, status: "ok", version: VERSION, ...cluster } : { success: false, message: "Not ready: the database or the scheduler is not running", ...cluster };
    }, { detail: { tags: ["instance"], ...doc("Health: 200 once the database answers and the scheduler runs", 503) } })
    .get("/api/config", async ({ request }) => {
      const host = request.headers.get("host");
      const page = host ? await services.status.byDomain(host) : undefined;
      const signOn = await ssoSettings.effective();
      return {
        success: true,
        version: VERSION,
        links: deps.config.links,
        firstRun: (await users.count()) === 0,
        registrationOpen: await registration.isOpenToAnyone(),
        // A status page's custom domain: the UI shows that page at "/".
        statusPage: page?.slug ?? null,
        // The sign-in page's choices: "Sign in with {name}" when single sign-on is on, and whether passwords still may.
        sso: ssoSettings.usable(signOn) ? { name: signOn.name } : null,
        passwordLogin: signOn.passwordLogin,
      };
    }, { detail: { tags: ["instance"], ...doc("Version, links, first run, whether anyone may register, the status page of this host name, how one signs in") } })
    .use(authRoutes({ users, twoFactor, passwords, registration, session, limits, trustProxy: deps.config.trustProxy, passwordLogin }))
    .use(ssoRoutes({ sso, settings: ssoSettings, accounts: ssoAccounts, provider: ssoProvider, session, log, publicUrl: deps.config.publicUrl, trustProxy: deps.config.trustProxy }))
    .use(twoFactorRoutes({ twoFactor, users, limits, session, passwords, ssoLinked: (userId) => ssoAccounts.hasIdentity(userId) }))
    .use(userRoutes({ users, passwords, session, checkCode: (user, code) => requireCode(twoFactor, limits, user, code) }))
    .use(registrationRoutes({ registration, session }))
    .use(tokenRoutes({ tokens, session, checkCode: (user, code) => requireCode(twoFactor, limits, user, code) }))
    .use(monitorRoutes({ monitors: services.monitors, events: services.events, session }))
    .use(pushRoutes({ monitors: services.monitors }))
    .use(dataRoutes)
    .use(tagRoutes({ store: createTagStore(deps.db), monitorTags: () => services.monitors.names().map((m) => m.tags), session }))
    .use(agentRoutes({ agents: services.agents, session, trustProxy: deps.config.trustProxy, inMaintenance: services.maintenance.agent, probesVersion: services.probes.versionOf }))
    .use(probeRoutes({ probes: services.probes, agents: services.agents, session }))
    .use(
      notificationRoutes({
        publicUrl: services.notifications.publicUrl,
        store: services.notifications.store,
        outbox: services.notifications.outbox,
        session,
        exists: (type, id) => (type === "monitor" ? services.monitors.get(id) !== undefined : services.agents.get(id) !== undefined),
      }),
    )
    .use(
      statusRoutes({
        status: services.status,
        session,
        monitorExists: (id) => services.monitors.get(id) !== undefined,
        agentExists: (id) => services.agents.get(id) !== undefined,
        publicUrl: deps.config.publicUrl,
        trustProxy: deps.config.trustProxy,
        feedLocale: () => services.notifications.store.getSettings(),
      }),
    )
    .use(
      statusPageRoutes({
        status: services.status,
        session,
        exists: (type, id) => (type === "monitor" ? services.monitors.get(id) !== undefined : services.agents.get(id) !== undefined),
        publicUrl: deps.config.publicUrl,
        trustProxy: deps.config.trustProxy,
      }),
    )
    .use(contactRoutes({ store: services.notifications.store, outbox: services.notifications.outbox, session }))
    .use(webPushRoutes({ push: services.push, session, send: () => services.notifications.ctx, settings: () => services.notifications.store.getSettings() }))
    .use(problemRoutes({ problems: services.problems, session, trustProxy: deps.config.trustProxy }))
    .use(maintenanceRoutes({ maintenance: services.maintenance, session }))
    .use(incidentRoutes({ incidents: services.incidents, session }))
    .use(subscriberRoutes({ subscribers: services.subscribers, status: services.status, session, publicUrl: deps.config.publicUrl, trustProxy: deps.config.trustProxy }))
    .use(clusterRoutes({ cluster: services.cluster, session }))
    .use(dashboardRoutes({ monitors: services.monitors, agents: services.agents, agentInMaintenance: services.maintenance.agent, session }))
    .use(metricsRoutes({ monitors: services.monitors, agents: services.agents, outbox: services.notifications.outbox, cluster: services.cluster, maintenance: services.maintenance, session }))
    .use(downloadRoutes({ dir: deps.config.agentsDir ?? defaultAgentsDir(), publicUrl: deps.config.publicUrl, trustProxy: deps.config.trustProxy }))
    .use(services.live.routes(session))
    .use(uiRoutes(deps.uiDir ?? defaultUiDir(), { live: deps.uiLive }));
}

export type App = ReturnType<typeof createApp>;
