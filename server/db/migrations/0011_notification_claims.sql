ALTER TABLE `notification_channels` ADD `paced_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `notification_channels` ADD `pace_gap` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `notification_messages` ADD `claimed_by` text;--> statement-breakpoint
ALTER TABLE `notification_messages` ADD `claimed_until` integer;