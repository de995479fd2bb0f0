CREATE TABLE `account_health` (
	`account` text PRIMARY KEY NOT NULL,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`suspended_at` integer,
	`suspended_reason` text
);
--> statement-breakpoint
CREATE TABLE `conditions` (
	`recipe_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`reason` text NOT NULL,
	`message` text NOT NULL,
	`changed_at` integer NOT NULL,
	PRIMARY KEY(`recipe_id`, `type`)
);
--> statement-breakpoint
CREATE TABLE `journal` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempt` integer DEFAULT 0 NOT NULL,
	`result` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `journal_run_seq` ON `journal` (`run_id`,`seq`);--> statement-breakpoint
CREATE INDEX `journal_status` ON `journal` (`status`);--> statement-breakpoint
CREATE TABLE `locks` (
	`account` text PRIMARY KEY NOT NULL,
	`lock_id` text NOT NULL,
	`holder` text NOT NULL,
	`acquired_at` integer NOT NULL,
	`heartbeat_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `locks_lock_id_unique` ON `locks` (`lock_id`);--> statement-breakpoint
CREATE TABLE `owned_playlists` (
	`account` text NOT NULL,
	`recipe_id` text NOT NULL,
	`target` text NOT NULL,
	`playlist_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`account`, `playlist_id`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `owned_playlists_recipe` ON `owned_playlists` (`account`,`recipe_id`);--> statement-breakpoint
CREATE TABLE `owned_rows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account` text NOT NULL,
	`target` text NOT NULL,
	`item_key` text NOT NULL,
	`set_video_id` text,
	`added_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `owned_rows_target` ON `owned_rows` (`account`,`target`,`item_key`);--> statement-breakpoint
CREATE TABLE `recipe_generations` (
	`recipe_id` text NOT NULL,
	`generation` integer NOT NULL,
	`hash` text NOT NULL,
	`seen_at` integer NOT NULL,
	PRIMARY KEY(`recipe_id`, `generation`)
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`recipe_id` text NOT NULL,
	`account` text NOT NULL,
	`kind` text NOT NULL,
	`recipe_hash` text NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`result` text NOT NULL,
	`counts` text,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `runs_recipe_started` ON `runs` (`recipe_id`,`started_at`);--> statement-breakpoint
CREATE TABLE `target_snapshots` (
	`account` text NOT NULL,
	`target` text NOT NULL,
	`recipe_id` text NOT NULL,
	`run_id` integer,
	`taken_at` integer NOT NULL,
	`fingerprint` text NOT NULL,
	`rows` text NOT NULL,
	PRIMARY KEY(`account`, `target`)
);
--> statement-breakpoint
CREATE TABLE `tombstones` (
	`account` text NOT NULL,
	`target` text NOT NULL,
	`item_key` text NOT NULL,
	`recipe_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`account`, `target`, `item_key`)
);
