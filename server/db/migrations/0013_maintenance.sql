CREATE TABLE `maintenance_agents` (
	`window_id` integer NOT NULL,
	`agent_id` integer NOT NULL,
	PRIMARY KEY(`window_id`, `agent_id`),
	FOREIGN KEY (`window_id`) REFERENCES `maintenance_windows`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `maintenance_agents_agent` ON `maintenance_agents` (`agent_id`);--> statement-breakpoint
CREATE TABLE `maintenance_monitors` (
	`window_id` integer NOT NULL,
	`monitor_id` integer NOT NULL,
	PRIMARY KEY(`window_id`, `monitor_id`),
	FOREIGN KEY (`window_id`) REFERENCES `maintenance_windows`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `maintenance_monitors_monitor` ON `maintenance_monitors` (`monitor_id`);--> statement-breakpoint
CREATE TABLE `maintenance_windows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`scope` text NOT NULL,
	`kind` text NOT NULL,
	`starts_at` integer,
	`ends_at` integer,
	`time` text,
	`weekdays` text DEFAULT '[]' NOT NULL,
	`month_days` text DEFAULT '[]' NOT NULL,
	`cron` text,
	`duration_minutes` integer,
	`timezone` text NOT NULL,
	`active_from` integer,
	`active_until` integer,
	`cut_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `check_results` ADD `maintenance` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `monitor_daily` ADD `maintenance` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `monitor_hourly` ADD `maintenance` integer DEFAULT 0 NOT NULL;