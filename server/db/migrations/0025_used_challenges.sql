CREATE TABLE `used_challenges` (
	`jti` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `used_challenges_expires` ON `used_challenges` (`expires_at`);