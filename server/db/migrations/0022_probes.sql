CREATE TABLE `monitor_locations` (
	`monitor_id` integer PRIMARY KEY NOT NULL,
	`from_server` integer DEFAULT true NOT NULL,
	`agent_ids` text DEFAULT '[]' NOT NULL,
	`rule` text DEFAULT 'majority' NOT NULL,
	`count` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `probe_results` (
	`id` integer PRIMARY KEY NOT NULL,
	`monitor_id` integer NOT NULL,
	`agent_id` integer NOT NULL,
	`time` integer NOT NULL,
	`up` integer NOT NULL,
	`response_time` integer,
	`http_status` integer,
	`error` text,
	`ping` text,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `probe_results_monitor_agent_time` ON `probe_results` (`monitor_id`,`agent_id`,`time`);--> statement-breakpoint
CREATE INDEX `probe_results_time` ON `probe_results` (`time`);--> statement-breakpoint
ALTER TABLE `agents` ADD `location` text;--> statement-breakpoint
ALTER TABLE `status_page` ADD `show_locations` integer DEFAULT false NOT NULL;