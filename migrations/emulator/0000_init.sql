CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`handle` text,
	`channel_id` text NOT NULL,
	`sapisid` text NOT NULL,
	`parent_id` integer,
	`page_id` text,
	`auth_user` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `albums` (
	`id` integer PRIMARY KEY NOT NULL,
	`browse_id` text NOT NULL,
	`audio_playlist_id` text NOT NULL,
	`title` text NOT NULL,
	`artist_id` integer NOT NULL,
	`type` text NOT NULL,
	`year` integer NOT NULL,
	`explicit` integer NOT NULL,
	`search_text` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `albums_browse_id_unique` ON `albums` (`browse_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `albums_audio_playlist_id_unique` ON `albums` (`audio_playlist_id`);--> statement-breakpoint
CREATE INDEX `albums_artist` ON `albums` (`artist_id`);--> statement-breakpoint
CREATE TABLE `artists` (
	`id` integer PRIMARY KEY NOT NULL,
	`channel_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`subscribers` integer NOT NULL,
	`monthly_listeners` integer NOT NULL,
	`description` text NOT NULL,
	`search_text` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `artists_channel_id_unique` ON `artists` (`channel_id`);--> statement-breakpoint
CREATE TABLE `charts` (
	`id` integer PRIMARY KEY NOT NULL,
	`country` text NOT NULL,
	`section` text NOT NULL,
	`position` integer NOT NULL,
	`target_id` text NOT NULL,
	`trend` text
);
--> statement-breakpoint
CREATE INDEX `charts_country` ON `charts` (`country`,`section`,`position`);--> statement-breakpoint
CREATE TABLE `episodes` (
	`id` integer PRIMARY KEY NOT NULL,
	`video_id` text NOT NULL,
	`podcast_id` integer NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`published_day` integer NOT NULL,
	`duration_seconds` integer NOT NULL,
	`search_text` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `episodes_video_id_unique` ON `episodes` (`video_id`);--> statement-breakpoint
CREATE INDEX `episodes_podcast` ON `episodes` (`podcast_id`);--> statement-breakpoint
CREATE TABLE `history` (
	`id` integer PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`video_id` text NOT NULL,
	`played_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `history_account` ON `history` (`account_id`,`played_at`);--> statement-breakpoint
CREATE TABLE `library_items` (
	`id` integer PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`kind` text NOT NULL,
	`target_id` text NOT NULL,
	`added_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `library_items_unique` ON `library_items` (`account_id`,`kind`,`target_id`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `mood_categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`section` text NOT NULL,
	`title` text NOT NULL,
	`params` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mood_categories_params_unique` ON `mood_categories` (`params`);--> statement-breakpoint
CREATE TABLE `mood_playlists` (
	`category_id` integer NOT NULL,
	`playlist_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`category_id`, `position`)
);
--> statement-breakpoint
CREATE TABLE `oauth_device_codes` (
	`device_code` text PRIMARY KEY NOT NULL,
	`user_code` text NOT NULL,
	`client_id` text NOT NULL,
	`polls` integer NOT NULL,
	`account_id` integer,
	`expires_at` integer NOT NULL,
	`used` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_device_codes_user_code_unique` ON `oauth_device_codes` (`user_code`);--> statement-breakpoint
CREATE TABLE `oauth_tokens` (
	`token` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`account_id` integer NOT NULL,
	`client_id` text NOT NULL,
	`expires_at` integer
);
--> statement-breakpoint
CREATE TABLE `playlist_items` (
	`id` integer PRIMARY KEY NOT NULL,
	`playlist_id` text NOT NULL,
	`video_id` text NOT NULL,
	`set_video_id` text NOT NULL,
	`position` real NOT NULL
);
--> statement-breakpoint
CREATE INDEX `playlist_items_order` ON `playlist_items` (`playlist_id`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `playlist_items_set` ON `playlist_items` (`playlist_id`,`set_video_id`);--> statement-breakpoint
CREATE TABLE `playlists` (
	`id` integer PRIMARY KEY NOT NULL,
	`playlist_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`owner_account_id` integer,
	`author_name` text NOT NULL,
	`author_channel_id` text,
	`privacy` text NOT NULL,
	`kind` text NOT NULL,
	`add_to_top` integer NOT NULL,
	`views` integer NOT NULL,
	`created_at` integer NOT NULL,
	`search_text` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `playlists_playlist_id_unique` ON `playlists` (`playlist_id`);--> statement-breakpoint
CREATE INDEX `playlists_owner` ON `playlists` (`owner_account_id`);--> statement-breakpoint
CREATE TABLE `podcasts` (
	`id` integer PRIMARY KEY NOT NULL,
	`playlist_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`channel_id` integer NOT NULL,
	`search_text` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `podcasts_playlist_id_unique` ON `podcasts` (`playlist_id`);--> statement-breakpoint
CREATE TABLE `ratings` (
	`id` integer PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`kind` text NOT NULL,
	`target_id` text NOT NULL,
	`rating` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ratings_unique` ON `ratings` (`account_id`,`target_id`);--> statement-breakpoint
CREATE TABLE `saved_episodes` (
	`id` integer PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`video_id` text NOT NULL,
	`set_video_id` text NOT NULL,
	`added_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saved_episodes_unique` ON `saved_episodes` (`account_id`,`video_id`);--> statement-breakpoint
CREATE TABLE `songs` (
	`id` integer PRIMARY KEY NOT NULL,
	`video_id` text NOT NULL,
	`title` text NOT NULL,
	`artist_id` integer NOT NULL,
	`album_id` integer,
	`track_number` integer,
	`duration_seconds` integer NOT NULL,
	`views` integer NOT NULL,
	`explicit` integer NOT NULL,
	`available` integer NOT NULL,
	`video_type` text NOT NULL,
	`counterpart_id` text,
	`lyrics_source` text,
	`search_text` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `songs_video_id_unique` ON `songs` (`video_id`);--> statement-breakpoint
CREATE INDEX `songs_album` ON `songs` (`album_id`);--> statement-breakpoint
CREATE INDEX `songs_artist` ON `songs` (`artist_id`);--> statement-breakpoint
CREATE TABLE `taste_profile` (
	`account_id` integer NOT NULL,
	`artist_id` integer NOT NULL,
	PRIMARY KEY(`account_id`, `artist_id`)
);
--> statement-breakpoint
CREATE TABLE `uploads` (
	`id` integer PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`entity_id` text NOT NULL,
	`video_id` text NOT NULL,
	`title` text NOT NULL,
	`artist_name` text NOT NULL,
	`album_title` text NOT NULL,
	`duration_seconds` integer NOT NULL,
	`file_name` text NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `uploads_entity_id_unique` ON `uploads` (`entity_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `uploads_video_id_unique` ON `uploads` (`video_id`);--> statement-breakpoint
CREATE INDEX `uploads_account` ON `uploads` (`account_id`);