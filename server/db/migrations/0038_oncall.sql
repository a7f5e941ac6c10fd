CREATE TABLE `oncall_overrides` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`schedule_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`schedule_id`) REFERENCES `oncall_schedules`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `oncall_overrides_schedule_ends` ON `oncall_overrides` (`schedule_id`,`ends_at`);--> statement-breakpoint
CREATE TABLE `oncall_schedules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`time_zone` text NOT NULL,
	`rotation` text NOT NULL,
	`handover_time` text NOT NULL,
	`handover_weekday` integer,
	`start_date` text NOT NULL,
	`participants` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
