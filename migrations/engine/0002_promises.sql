CREATE TABLE `source_reads` (
	`recipe_id` text NOT NULL,
	`source_id` text NOT NULL,
	`items` integer NOT NULL,
	`read_at` integer NOT NULL,
	PRIMARY KEY(`recipe_id`, `source_id`)
);
--> statement-breakpoint
ALTER TABLE `runs` ADD `holder` text;--> statement-breakpoint
CREATE INDEX `runs_result` ON `runs` (`result`);