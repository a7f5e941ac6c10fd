CREATE TABLE `escalation_assignments` (
	`target_kind` text NOT NULL,
	`target_ref` text NOT NULL,
	`policy_id` integer NOT NULL,
	PRIMARY KEY(`target_kind`, `target_ref`),
	FOREIGN KEY (`policy_id`) REFERENCES `escalation_policies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `escalation_policies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`steps` text NOT NULL,
	`repeat_every_minutes` integer,
	`repeat_limit` integer DEFAULT 0 NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `escalation_runs` (
	`target_type` text NOT NULL,
	`target_id` integer NOT NULL,
	`condition` text NOT NULL,
	`since` integer NOT NULL,
	`policy_id` integer NOT NULL,
	`raised_at` integer NOT NULL,
	`event` text NOT NULL,
	`alerted` text NOT NULL,
	`paged` text NOT NULL,
	`fired_step` integer DEFAULT -1 NOT NULL,
	`fired_repeat` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`target_type`, `target_id`, `condition`),
	FOREIGN KEY (`policy_id`) REFERENCES `escalation_policies`(`id`) ON UPDATE no action ON DELETE cascade
);
