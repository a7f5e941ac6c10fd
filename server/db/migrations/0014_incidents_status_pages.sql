-- Edited by hand: the copies of status_page_agents/monitors take only the columns the old tables have (drizzle-kit
-- named the new ones too); page_id and group_name get their defaults (the default page, no group).
CREATE TABLE `incident_agents` (
	`incident_id` integer NOT NULL,
	`agent_id` integer NOT NULL,
	PRIMARY KEY(`incident_id`, `agent_id`),
	FOREIGN KEY (`incident_id`) REFERENCES `incidents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `incident_agents_agent` ON `incident_agents` (`agent_id`);--> statement-breakpoint
CREATE TABLE `incident_monitors` (
	`incident_id` integer NOT NULL,
	`monitor_id` integer NOT NULL,
	PRIMARY KEY(`incident_id`, `monitor_id`),
	FOREIGN KEY (`incident_id`) REFERENCES `incidents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `incident_monitors_monitor` ON `incident_monitors` (`monitor_id`);--> statement-breakpoint
CREATE TABLE `incident_pages` (
	`incident_id` integer NOT NULL,
	`page_id` integer NOT NULL,
	PRIMARY KEY(`incident_id`, `page_id`),
	FOREIGN KEY (`incident_id`) REFERENCES `incidents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`page_id`) REFERENCES `status_page`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `incident_updates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`incident_id` integer NOT NULL,
	`state` text NOT NULL,
	`message` text NOT NULL,
	`at` integer NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`incident_id`) REFERENCES `incidents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `incident_updates_incident` ON `incident_updates` (`incident_id`,`at`);--> statement-breakpoint
CREATE TABLE `incidents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`impact` text NOT NULL,
	`state` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`resolved_at` integer
);
--> statement-breakpoint
CREATE INDEX `incidents_created` ON `incidents` (`created_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_status_page_agents` (
	`page_id` integer DEFAULT 1 NOT NULL,
	`agent_id` integer NOT NULL,
	`position` integer NOT NULL,
	`group_name` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`page_id`, `agent_id`),
	FOREIGN KEY (`page_id`) REFERENCES `status_page`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_status_page_agents`("agent_id", "position") SELECT "agent_id", "position" FROM `status_page_agents`;--> statement-breakpoint
DROP TABLE `status_page_agents`;--> statement-breakpoint
ALTER TABLE `__new_status_page_agents` RENAME TO `status_page_agents`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE TABLE `__new_status_page_monitors` (
	`page_id` integer DEFAULT 1 NOT NULL,
	`monitor_id` integer NOT NULL,
	`position` integer NOT NULL,
	`group_name` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`page_id`, `monitor_id`),
	FOREIGN KEY (`page_id`) REFERENCES `status_page`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_status_page_monitors`("monitor_id", "position") SELECT "monitor_id", "position" FROM `status_page_monitors`;--> statement-breakpoint
DROP TABLE `status_page_monitors`;--> statement-breakpoint
ALTER TABLE `__new_status_page_monitors` RENAME TO `status_page_monitors`;--> statement-breakpoint
ALTER TABLE `status_page` ADD `slug` text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE `status_page` ADD `logo` text;--> statement-breakpoint
ALTER TABLE `status_page` ADD `custom_domain` text;--> statement-breakpoint
ALTER TABLE `status_page` ADD `visibility` text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE `status_page` ADD `password_hash` text;--> statement-breakpoint
ALTER TABLE `status_page` ADD `password_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `status_page` ADD `created_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `status_page_slug` ON `status_page` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `status_page_domain` ON `status_page` (lower("custom_domain"));