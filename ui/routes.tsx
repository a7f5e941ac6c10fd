import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from "react";
import { useSignals } from "@preact/signals-react/runtime";
import { Route, Switch } from "wouter";
import { siteConfig } from "./state/config";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { RequireAdmin, RequireAuth, RequireEditor } from "./components/guards";
import { Layout } from "./components/Layout";
import { PageLoading } from "./components/PageLoading";

// Every screen is its own lazily loaded chunk.
const Home = lazy(() => import("./pages/home/Home"));
const Login = lazy(() => import("./pages/auth/Login"));
const Register = lazy(() => import("./pages/auth/Register"));
const StatusPage = lazy(() => import("./pages/status/StatusPage"));
const SubscriptionLink = lazy(() => import("./pages/status/SubscriptionLink"));
const AckLink = lazy(() => import("./pages/problems/AckLink"));
const StatusConfig = lazy(() => import("./pages/status/StatusConfig"));
const Dashboard = lazy(() => import("./pages/dashboard/Dashboard"));
const MonitorList = lazy(() => import("./pages/monitors/MonitorList"));
const MonitorCreate = lazy(() => import("./pages/monitors/MonitorCreate"));
const MonitorEdit = lazy(() => import("./pages/monitors/MonitorEdit"));
const MonitorDetail = lazy(() => import("./pages/monitors/MonitorDetail"));
const AgentList = lazy(() => import("./pages/agents/AgentList"));
const AgentCreate = lazy(() => import("./pages/agents/AgentCreate"));
const AgentEdit = lazy(() => import("./pages/agents/AgentEdit"));
const AgentDetail = lazy(() => import("./pages/agents/AgentDetail"));
const Notifications = lazy(() => import("./pages/notifications/Notifications"));
const OnCall = lazy(() => import("./pages/oncall/OnCall"));
const OnCallSchedule = lazy(() => import("./pages/oncall/ScheduleDetail"));
const OnCallEditor = lazy(() => import("./pages/oncall/ScheduleEditor"));
const UserList = lazy(() => import("./pages/users/UserList"));
const UserCreate = lazy(() => import("./pages/users/UserCreate"));
const UserEdit = lazy(() => import("./pages/users/UserEdit"));
const Profile = lazy(() => import("./pages/profile/Profile"));
const Nodes = lazy(() => import("./pages/nodes/Nodes"));
const StatusPages = lazy(() => import("./pages/status/StatusPages"));
const StatusPageEditor = lazy(() => import("./pages/status/StatusPageEditor"));
const IncidentList = lazy(() => import("./pages/incidents/IncidentList"));
const IncidentCreate = lazy(() => import("./pages/incidents/IncidentCreate"));
const IncidentDetail = lazy(() => import("./pages/incidents/IncidentDetail"));
const MaintenanceList = lazy(() => import("./pages/maintenance/MaintenanceList"));
const MaintenanceEditor = lazy(() => import("./pages/maintenance/MaintenanceEditor"));
const ImportKuma = lazy(() => import("./pages/import/ImportKuma"));
const Reports = lazy(() => import("./pages/reports/Reports"));
const NotFound = lazy(() => import("./pages/NotFound"));

type Page = LazyExoticComponent<ComponentType>;

/** A layout route: needs a session; for /users* the admin role, for a screen that only changes things an editor. */
function authed(Page: Page, role: "admin" | "editor" | null = null) {
  return function Guarded() {
    const page = role === "admin" ? <RequireAdmin><Page /></RequireAdmin> : role === "editor" ? <RequireEditor><Page /></RequireEditor> : <Page />;
    return <RequireAuth>{page}</RequireAuth>;
  };
}

// Paths inside the layout (spec §2). Specific paths come before their `:id` siblings.
const LAYOUT_ROUTES: [string, ComponentType][] = [
  ["/", Home],
  ["/login", Login],
  ["/register", Register],
  ["/dashboard", authed(Dashboard)],
  ["/agents", authed(AgentList)],
  ["/agents/create", authed(AgentCreate, "editor")],
  ["/agents/edit/:id", authed(AgentEdit, "editor")],
  ["/agents/:id", authed(AgentDetail)],
  ["/status/config", authed(StatusConfig)],
  ["/monitors", authed(MonitorList)],
  ["/monitors/create", authed(MonitorCreate, "editor")],
  ["/monitors/edit/:id", authed(MonitorEdit, "editor")],
  ["/monitors/:id", authed(MonitorDetail)],
  ["/notifications", authed(Notifications)],
  ["/oncall", authed(OnCall)],
  ["/oncall/new", authed(OnCallEditor, "editor")],
  ["/oncall/edit/:id", authed(OnCallEditor, "editor")],
  ["/oncall/:id", authed(OnCallSchedule)],
  ["/status-pages", authed(StatusPages)],
  ["/status-pages/new", authed(StatusPageEditor, "editor")],
  ["/status-pages/:id", authed(StatusPageEditor)],
  ["/incidents", authed(IncidentList)],
  ["/incidents/new", authed(IncidentCreate, "editor")],
  ["/incidents/:id", authed(IncidentDetail)],
  ["/reports", authed(Reports)],
  ["/maintenance", authed(MaintenanceList)],
  ["/maintenance/create", authed(MaintenanceEditor, "editor")],
  ["/maintenance/edit/:id", authed(MaintenanceEditor, "editor")],
  ["/users", authed(UserList, "admin")],
  ["/users/create", authed(UserCreate, "admin")],
  ["/users/:id", authed(UserEdit, "admin")],
  ["/import/kuma", authed(ImportKuma, "admin")],
  ["/profile", authed(Profile)],
  ["/nodes", authed(Nodes)],
];

export function AppRoutes() {
  useSignals();
  // On a status page's custom domain, its root is that page.
  const customDomainPage = siteConfig.value?.statusPage ?? null;
  return (
    <Switch>
      {customDomainPage && (
        <Route path="/">
          <ErrorBoundary>
            <Suspense fallback={<PageLoading />}>
              <StatusPage slug={customDomainPage} />
            </Suspense>
          </ErrorBoundary>
        </Route>
      )}
      {/* The public status page is the one screen without navbar and footer. */}
      <Route path="/status">
        <ErrorBoundary>
          <Suspense fallback={<PageLoading />}>
            <StatusPage />
          </Suspense>
        </ErrorBoundary>
      </Route>
      {(["confirm", "unsubscribe"] as const).map((mode) => (
        <Route key={mode} path={`/status/${mode}`}>
          <ErrorBoundary>
            <Suspense fallback={<PageLoading />}>
              <SubscriptionLink mode={mode} />
            </Suspense>
          </ErrorBoundary>
        </Route>
      ))}
      {/* An alert's acknowledgement link: public, outside the layout, like the status page. */}
      <Route path="/ack/:token">
        <ErrorBoundary>
          <Suspense fallback={<PageLoading />}>
            <AckLink />
          </Suspense>
        </ErrorBoundary>
      </Route>
      <Route path="/status/:slug">
        {(params) =>
          params.slug === "config" ? (
            <LayoutRoutes />
          ) : (
            <ErrorBoundary>
              <Suspense fallback={<PageLoading />}>
                <StatusPage slug={params.slug} />
              </Suspense>
            </ErrorBoundary>
          )
        }
      </Route>
      <Route>
        <LayoutRoutes />
      </Route>
    </Switch>
  );
}

/** Every screen inside the navbar and footer. */
function LayoutRoutes() {
  return (
    <Layout>
      <Switch>
        {LAYOUT_ROUTES.map(([path, component]) => (
          <Route key={path} path={path} component={component} />
        ))}
        <Route component={NotFound} />
      </Switch>
    </Layout>
  );
}
