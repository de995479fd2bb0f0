CREATE TABLE `recipe_health` (
	`recipe_id` text PRIMARY KEY NOT NULL,
	`account` text NOT NULL,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`suspended_at` integer,
	`suspended_reason` text,
	`next_run_at` integer,
	`next_run_reason` text,
	`planned_by` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `target_snapshots` ADD `meta` text;--> statement-breakpoint
CREATE INDEX `target_snapshots_recipe` ON `target_snapshots` (`recipe_id`);