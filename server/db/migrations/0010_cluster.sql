CREATE TABLE `cluster_leases` (
	`bucket` integer PRIMARY KEY NOT NULL,
	`node` text,
	`instance` text,
	`expires_at` integer DEFAULT 0 NOT NULL,
	`epoch` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `cluster_nodes` (
	`name` text PRIMARY KEY NOT NULL,
	`instance` text NOT NULL,
	`version` text NOT NULL,
	`address` text,
	`started_at` integer NOT NULL,
	`heartbeat_at` integer NOT NULL,
	`leases` integer DEFAULT 0 NOT NULL,
	`stopped_at` integer
);
