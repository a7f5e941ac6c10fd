-- Checks are written without a foreign key to monitors on PostgreSQL (server/monitors/writer.ts). The key made
-- PostgreSQL lock the monitor's row (SELECT … FOR KEY SHARE, a WAL record) for every check inserted, on top of the
-- writer's own `WHERE EXISTS` guard, which already drops the checks of a monitor deleted meanwhile. A deleted monitor's
-- rows and blocks are deleted by the monitor store (store.remove) instead of by ON DELETE CASCADE. Written by hand:
-- drizzle's schema is shared with SQLite, which keeps its key (a lookup, no lock), so the snapshot still lists it.
ALTER TABLE "check_results" DROP CONSTRAINT "check_results_monitor_id_monitors_id_fk";--> statement-breakpoint
ALTER TABLE "check_blocks" DROP CONSTRAINT "check_blocks_monitor_id_monitors_id_fk";
