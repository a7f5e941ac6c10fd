CREATE TABLE `report_schedules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`target_kind` text NOT NULL,
	`target_ref` text NOT NULL,
	`zone` text NOT NULL,
	`language` text DEFAULT 'zh-CN' NOT NULL,
	`channel_id` integer NOT NULL,
	`recipients` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`last_period` text,
	`last_sent_at` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`channel_id`) REFERENCES `notification_channels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `monitors` ADD `objective` real;--> statement-breakpoint
ALTER TABLE `monitors` ADD `objective_days` integer DEFAULT 30 NOT NULL;