CREATE TABLE "import_links" (
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"source_id" text NOT NULL,
	"target_id" bigint NOT NULL,
	"imported_at" bigint NOT NULL,
	CONSTRAINT "import_links_source_kind_source_id_pk" PRIMARY KEY("source","kind","source_id")
);
--> statement-breakpoint
CREATE TABLE "monitor_dependencies" (
	"monitor_id" bigint NOT NULL,
	"depends_on_id" bigint NOT NULL,
	CONSTRAINT "monitor_dependencies_monitor_id_depends_on_id_pk" PRIMARY KEY("monitor_id","depends_on_id")
);
--> statement-breakpoint
CREATE TABLE "tag_styles" (
	"name" text PRIMARY KEY NOT NULL,
	"color" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "retry_interval" bigint;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "upside_down" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "parent_id" bigint;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "group_rule" text DEFAULT 'worst' NOT NULL;--> statement-breakpoint
ALTER TABLE "monitor_dependencies" ADD CONSTRAINT "monitor_dependencies_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_dependencies" ADD CONSTRAINT "monitor_dependencies_depends_on_id_monitors_id_fk" FOREIGN KEY ("depends_on_id") REFERENCES "monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_parent_id_monitors_id_fk" FOREIGN KEY ("parent_id") REFERENCES "monitors"("id") ON DELETE set null ON UPDATE no action;;--> statement-breakpoint
-- Intervals were whole minutes and timeouts whole seconds: now seconds and milliseconds (sub-minute checks).
UPDATE "monitors" SET "interval" = "interval" * 60, "timeout" = "timeout" * 1000;