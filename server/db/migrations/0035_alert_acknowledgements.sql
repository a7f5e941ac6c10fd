ALTER TABLE `notification_alerts` ADD `acked_at` integer;--> statement-breakpoint
ALTER TABLE `notification_alerts` ADD `acked_by` integer REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `notification_alerts` ADD `acked_by_name` text;--> statement-breakpoint
ALTER TABLE `notification_alerts` ADD `acked_channel` text;--> statement-breakpoint
ALTER TABLE `notification_alerts` ADD `ack_via` text;