-- Checks at a fraction of a row each (server/monitors/packing.ts). check_results becomes partitioned by the hour of
-- `time`: the table as it was is kept, every row in it, as the DEFAULT partition, which the packer empties an hour at a
-- time; hour partitions are made ahead of the clock from then on. A closed hour's checks are packed into
-- check_blocks, one row per monitor and hour holding arrays, and its partition dropped. check_blocks is partitioned by
-- UTC day of `hour_start`, so retention drops whole days instead of deleting rows. Written by hand: drizzle's schema
-- has no partitions, and check_blocks exists on PostgreSQL only (SQLite keeps one packed WITHOUT ROWID table).
ALTER TABLE "check_results" RENAME TO "check_results_default";--> statement-breakpoint
ALTER TABLE "check_results_default" DROP CONSTRAINT "check_results_monitor_id_monitors_id_fk";--> statement-breakpoint
ALTER TABLE "check_results_default" RENAME CONSTRAINT "check_results_monitor_id_time_pk" TO "check_results_default_pkey";--> statement-breakpoint
CREATE TABLE "check_results" (
	"monitor_id" bigint NOT NULL,
	"time" bigint NOT NULL,
	"up" boolean NOT NULL,
	"response_time" bigint,
	"http_status" bigint,
	"error" text,
	"maintenance" boolean DEFAULT false NOT NULL,
	"ping" jsonb,
	CONSTRAINT "check_results_monitor_id_time_pk" PRIMARY KEY("monitor_id","time")
) PARTITION BY RANGE ("time");--> statement-breakpoint
ALTER TABLE "check_results" ADD CONSTRAINT "check_results_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_results" ATTACH PARTITION "check_results_default" DEFAULT;--> statement-breakpoint
CREATE TABLE "check_blocks" (
	"monitor_id" bigint NOT NULL,
	"hour_start" bigint NOT NULL,
	"offsets" integer[] NOT NULL,
	"ups" boolean[] NOT NULL,
	"response_times" integer[] NOT NULL,
	"http_statuses" smallint[] NOT NULL,
	"errors" text[],
	"maintenance" boolean[],
	"pings" jsonb[],
	CONSTRAINT "check_blocks_pk" PRIMARY KEY("monitor_id","hour_start")
) PARTITION BY RANGE ("hour_start");--> statement-breakpoint
ALTER TABLE "check_blocks" ADD CONSTRAINT "check_blocks_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The packer reads the default partition an hour at a time from its oldest row.
CREATE INDEX "check_results_default_time" ON "check_results_default" USING btree ("time");
