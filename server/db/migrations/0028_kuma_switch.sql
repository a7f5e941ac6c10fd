CREATE TABLE `import_links` (
	`source` text NOT NULL,
	`kind` text NOT NULL,
	`source_id` text NOT NULL,
	`target_id` integer NOT NULL,
	`imported_at` integer NOT NULL,
	PRIMARY KEY(`source`, `kind`, `source_id`)
);
--> statement-breakpoint
CREATE TABLE `monitor_dependencies` (
	`monitor_id` integer NOT NULL,
	`depends_on_id` integer NOT NULL,
	PRIMARY KEY(`monitor_id`, `depends_on_id`),
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`depends_on_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `tag_styles` (
	`name` text PRIMARY KEY NOT NULL,
	`color` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `monitors` ADD `retry_interval` integer;--> statement-breakpoint
ALTER TABLE `monitors` ADD `upside_down` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `monitors` ADD `parent_id` integer REFERENCES monitors(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `monitors` ADD `group_rule` text DEFAULT 'worst' NOT NULL;;--> statement-breakpoint
-- Intervals were whole minutes and timeouts whole seconds: now seconds and milliseconds (sub-minute checks).
UPDATE `monitors` SET `interval` = `interval` * 60, `timeout` = `timeout` * 1000;