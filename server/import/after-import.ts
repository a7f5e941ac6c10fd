// After an import is committed from the admin screen, the running services re-read what it wrote: the monitors (and
// their schedule), notification settings, maintenance windows and status pages — on this node at once, on the other
// nodes of a cluster through the "settings.change" events the cluster bridge forwards.
import type { Services } from "../app";

const AREAS = ["monitors", "notifications", "status", "maintenance"] as const;

export function afterImport(services: Pick<Services, "monitors" | "notifications" | "maintenance" | "events" | "status">): () => Promise<void> {
  return async () => {
    await services.monitors.resync();
    services.status.reload();
    services.notifications.store.dropCaches();
    await services.maintenance.load();
    for (const area of AREAS) services.events.emit("settings.change", { area });
  };
}
