CREATE TABLE "check_screenshots" (
	"monitor_id" bigint NOT NULL,
	"time" bigint NOT NULL,
	"error" text,
	"png" "bytea" NOT NULL,
	CONSTRAINT "check_screenshots_monitor_id_time_pk" PRIMARY KEY("monitor_id","time")
);
--> statement-breakpoint
ALTER TABLE "check_screenshots" ADD CONSTRAINT "check_screenshots_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE cascade ON UPDATE no action;