CREATE TABLE `match_cache` (
	`entry_key` text PRIMARY KEY NOT NULL,
	`video_id` text,
	`score` real,
	`reasons` text NOT NULL,
	`matched_at` integer NOT NULL
);
