CREATE TABLE `notification_alerts` (
	`target_type` text NOT NULL,
	`target_id` integer NOT NULL,
	`condition` text NOT NULL,
	`since` integer NOT NULL,
	`last_notified_at` integer NOT NULL,
	PRIMARY KEY(`target_type`, `target_id`, `condition`)
);
--> statement-breakpoint
CREATE TABLE `notification_channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`config` text NOT NULL,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`last_success_at` integer,
	`last_failure_at` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notification_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel_id` integer NOT NULL,
	`event_key` text NOT NULL,
	`event` text NOT NULL,
	`created_at` integer NOT NULL,
	`message_id` integer,
	FOREIGN KEY (`channel_id`) REFERENCES `notification_channels`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`message_id`) REFERENCES `notification_messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_events_channel_key` ON `notification_events` (`channel_id`,`event_key`);--> statement-breakpoint
CREATE INDEX `notification_events_unsent` ON `notification_events` (`channel_id`,`message_id`);--> statement-breakpoint
CREATE TABLE `notification_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel_id` integer NOT NULL,
	`message` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`sent_at` integer,
	`error` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`channel_id`) REFERENCES `notification_channels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notification_messages_due` ON `notification_messages` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `notification_messages_channel` ON `notification_messages` (`channel_id`,`id`);--> statement-breakpoint
CREATE TABLE `notification_overrides` (
	`target_type` text NOT NULL,
	`target_id` integer NOT NULL,
	`settings` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`target_type`, `target_id`)
);
