CREATE TABLE `agent_hourly` (
	`agent_id` integer NOT NULL,
	`time` integer NOT NULL,
	`avg` text NOT NULL,
	`max` text NOT NULL,
	PRIMARY KEY(`agent_id`, `time`),
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `agent_minutely` (
	`agent_id` integer NOT NULL,
	`time` integer NOT NULL,
	`avg` text NOT NULL,
	`max` text NOT NULL,
	PRIMARY KEY(`agent_id`, `time`),
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `agent_samples` (
	`agent_id` integer NOT NULL,
	`time` integer NOT NULL,
	`values` text NOT NULL,
	PRIMARY KEY(`agent_id`, `time`),
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `agent_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`agent_id` integer,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_tokens_token_hash_unique` ON `agent_tokens` (`token_hash`);--> statement-breakpoint
CREATE TABLE `agents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`credential_hash` text NOT NULL,
	`hostname` text DEFAULT '' NOT NULL,
	`ips` text DEFAULT '[]' NOT NULL,
	`os` text DEFAULT '' NOT NULL,
	`kernel` text DEFAULT '' NOT NULL,
	`arch` text DEFAULT '' NOT NULL,
	`agent_version` text DEFAULT '' NOT NULL,
	`interval` integer DEFAULT 10 NOT NULL,
	`uptime` real DEFAULT 0 NOT NULL,
	`last_seen_at` integer,
	`latest` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agents_credential_hash_unique` ON `agents` (`credential_hash`);