CREATE TABLE `sso_identities` (
	`issuer` text NOT NULL,
	`subject` text NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	PRIMARY KEY(`issuer`, `subject`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sso_identities_user` ON `sso_identities` (`user_id`);--> statement-breakpoint
CREATE TABLE `sso_logins` (
	`key_hash` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`nonce` text,
	`verifier` text,
	`return_to` text,
	`user_id` integer,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sso_logins_expires` ON `sso_logins` (`expires_at`);