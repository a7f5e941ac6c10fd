CREATE TABLE `monitor_outages` (
	`monitor_id` integer NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`last_failure_at` integer NOT NULL,
	`failures` integer NOT NULL,
	`cause` text,
	PRIMARY KEY(`monitor_id`, `started_at`),
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `config_links` (
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`object_id` text NOT NULL,
	`applied_hash` text NOT NULL,
	`applied_at` integer NOT NULL,
	PRIMARY KEY(`kind`, `key`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `config_links_object` ON `config_links` (`kind`,`object_id`);--> statement-breakpoint
ALTER TABLE `monitor_daily` ADD `rt_hist` text;--> statement-breakpoint
ALTER TABLE `monitor_hourly` ADD `rt_hist` text;