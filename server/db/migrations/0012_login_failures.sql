CREATE TABLE `login_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_failures_scope_key_at` ON `login_failures` (`scope`,`key`,`at`);--> statement-breakpoint
CREATE INDEX `login_failures_at` ON `login_failures` (`at`);