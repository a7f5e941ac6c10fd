ALTER TABLE `api_tokens` ADD `scope` text DEFAULT 'write' NOT NULL;--> statement-breakpoint
-- Accounts disabled before disabling ended sessions for good: end them now (a later re-enable must not revive old
-- sessions), and revoke their API tokens, as disabling now does.
UPDATE `users` SET `session_version` = `session_version` + 1 WHERE `status` = 'disabled';--> statement-breakpoint
DELETE FROM `api_tokens` WHERE `user_id` IN (SELECT `id` FROM `users` WHERE `status` = 'disabled');
