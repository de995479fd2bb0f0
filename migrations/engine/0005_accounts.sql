CREATE TABLE `accounts` (
	`name` text PRIMARY KEY NOT NULL,
	`settings` text NOT NULL,
	`sealed` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
