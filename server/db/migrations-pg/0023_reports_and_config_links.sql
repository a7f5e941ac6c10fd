CREATE TABLE "config_links" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"object_id" text NOT NULL,
	"applied_hash" text NOT NULL,
	"applied_at" bigint NOT NULL,
	CONSTRAINT "config_links_kind_key_pk" PRIMARY KEY("kind","key")
);
--> statement-breakpoint
CREATE TABLE "monitor_outages" (
	"monitor_id" bigint NOT NULL,
	"started_at" bigint NOT NULL,
	"ended_at" bigint,
	"last_failure_at" bigint NOT NULL,
	"failures" bigint NOT NULL,
	"cause" text,
	CONSTRAINT "monitor_outages_monitor_id_started_at_pk" PRIMARY KEY("monitor_id","started_at")
);
--> statement-breakpoint
ALTER TABLE "monitor_daily" ADD COLUMN "rt_hist" text;--> statement-breakpoint
ALTER TABLE "monitor_hourly" ADD COLUMN "rt_hist" text;--> statement-breakpoint
ALTER TABLE "monitor_outages" ADD CONSTRAINT "monitor_outages_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "config_links_object" ON "config_links" USING btree ("kind","object_id");