-- check_results keyed (monitor_id, time), WITHOUT ROWID: one b-tree instead of a rowid table plus an index.
-- Edited by hand (drizzle-kit knows no WITHOUT ROWID). Two checks of a monitor that started in the same millisecond
-- would collide on the key: each monitor's checks, in (time, id) order, get times made strictly increasing by the
-- least shift (new = rn + running max of (time - rn)), which leaves distinct times as they are and loses no row.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_check_results` (
	`monitor_id` integer NOT NULL,
	`time` integer NOT NULL,
	`up` integer NOT NULL,
	`response_time` integer,
	`http_status` integer,
	`error` text,
	`maintenance` integer DEFAULT false NOT NULL,
	`ping` text,
	PRIMARY KEY(`monitor_id`, `time`),
	FOREIGN KEY (`monitor_id`) REFERENCES `monitors`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_check_results`("monitor_id", "time", "up", "response_time", "http_status", "error", "maintenance", "ping")
  SELECT "monitor_id", rn + max("time" - rn) OVER (PARTITION BY "monitor_id" ORDER BY "time", "id" ROWS UNBOUNDED PRECEDING),
         "up", "response_time", "http_status", "error", "maintenance", "ping"
  FROM (SELECT *, row_number() OVER (PARTITION BY "monitor_id" ORDER BY "time", "id") AS rn FROM `check_results`)
  ORDER BY "monitor_id", "time", "id";--> statement-breakpoint
DROP TABLE `check_results`;--> statement-breakpoint
ALTER TABLE `__new_check_results` RENAME TO `check_results`;--> statement-breakpoint
PRAGMA foreign_keys=ON;
