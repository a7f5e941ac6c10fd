CREATE TABLE `check_results` (
	`id` integer PRIMARY KEY NOT NULL,
	`monitor_id` integer NOT NULL,
	`time` integer NOT NULL,
	`up` integer NOT NULL,
	`response_time` integer,
	`http_status` integer,
	`error` text,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `check_results_monitor_time` ON `check_results` (`monitor_id`,`time`);--> statement-breakpoint
CREATE TABLE `monitor_daily` (
	`monitor_id` integer NOT NULL,
	`bucket_start` integer NOT NULL,
	`checks` integer NOT NULL,
	`up` integer NOT NULL,
	`down` integer NOT NULL,
	`rt_sum` integer NOT NULL,
	`rt_count` integer NOT NULL,
	`rt_min` integer,
	`rt_max` integer,
	PRIMARY KEY(`monitor_id`, `bucket_start`),
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `monitor_hourly` (
	`monitor_id` integer NOT NULL,
	`bucket_start` integer NOT NULL,
	`checks` integer NOT NULL,
	`up` integer NOT NULL,
	`down` integer NOT NULL,
	`rt_sum` integer NOT NULL,
	`rt_count` integer NOT NULL,
	`rt_min` integer,
	`rt_max` integer,
	PRIMARY KEY(`monitor_id`, `bucket_start`),
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `monitors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`method` text DEFAULT 'GET' NOT NULL,
	`interval` integer NOT NULL,
	`timeout` integer NOT NULL,
	`expected_status` text DEFAULT '2xx' NOT NULL,
	`headers` text DEFAULT '[]' NOT NULL,
	`body` text,
	`active` integer DEFAULT true NOT NULL,
	`retries` integer DEFAULT 1 NOT NULL,
	`follow_redirects` integer DEFAULT true NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`status_changed_at` integer,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`last_checked_at` integer,
	`last_response_time` integer,
	`last_http_status` integer,
	`last_error` text,
	`tls_expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
