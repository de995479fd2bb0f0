CREATE TABLE `approvals` (
	`run_id` integer PRIMARY KEY NOT NULL,
	`recipe_id` text NOT NULL,
	`account` text NOT NULL,
	`plan` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	`status` text NOT NULL,
	`decided_at` integer,
	`applied_run_id` integer
);
--> statement-breakpoint
CREATE INDEX `approvals_recipe` ON `approvals` (`recipe_id`,`status`);--> statement-breakpoint
CREATE TABLE `run_before` (
	`run_id` integer PRIMARY KEY NOT NULL,
	`recipe_id` text NOT NULL,
	`account` text NOT NULL,
	`target` text NOT NULL,
	`taken_at` integer NOT NULL,
	`plan` text NOT NULL,
	`before` text NOT NULL
);
