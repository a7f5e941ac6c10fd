-- Edited by hand: roles are admin, editor and viewer; every "user" becomes an editor (what a user could do). The
-- column's SQL default stays as it was: rebuilding `users` (SQLite's only way to change a default) inside the
-- migration transaction would cascade its deletion into every table that references it. Vigil always writes the role.
UPDATE `users` SET `role` = 'editor' WHERE `role` = 'user';--> statement-breakpoint
UPDATE `invites` SET `role` = 'editor' WHERE `role` = 'user';
