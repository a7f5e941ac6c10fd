CREATE TABLE `check_screenshots` (
	`monitor_id` integer NOT NULL,
	`time` integer NOT NULL,
	`error` text,
	`png` blob NOT NULL,
	PRIMARY KEY(`monitor_id`, `time`),
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
);
