CREATE TABLE `user_quiet_hours` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`quiet_hours` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `notification_channels` ADD `owner_user_id` integer REFERENCES users(id) ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE `notification_channels` ADD `quiet_hours` text;--> statement-breakpoint
CREATE INDEX `notification_channels_owner` ON `notification_channels` (`owner_user_id`);--> statement-breakpoint
ALTER TABLE `notification_events` ADD `importance` text DEFAULT 'high' NOT NULL;