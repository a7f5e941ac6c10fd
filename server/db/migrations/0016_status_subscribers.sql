CREATE TABLE `status_notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`page_id` integer NOT NULL,
	`subject` text NOT NULL,
	`lines` text NOT NULL,
	`created_at` integer NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`done_at` integer,
	FOREIGN KEY (`page_id`) REFERENCES `status_page`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `status_notices_due` ON `status_notices` (`done_at`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `status_subscribers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`page_id` integer NOT NULL,
	`email` text NOT NULL,
	`confirm_hash` text,
	`confirm_expires_at` integer,
	`confirmed_at` integer,
	`unsubscribe_token` text NOT NULL,
	`base_url` text NOT NULL,
	`mailed_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`page_id`) REFERENCES `status_page`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `status_subscribers_page_email` ON `status_subscribers` (`page_id`,`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `status_subscribers_unsubscribe` ON `status_subscribers` (`unsubscribe_token`);--> statement-breakpoint
CREATE INDEX `status_subscribers_confirm` ON `status_subscribers` (`confirm_hash`);