CREATE TABLE `status_page` (
	`id` integer PRIMARY KEY NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`announcement_severity` text,
	`announcement_text` text,
	`announcement_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `status_page_agents` (
	`agent_id` integer PRIMARY KEY NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `status_page_monitors` (
	`monitor_id` integer PRIMARY KEY NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
