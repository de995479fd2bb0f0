-- Tokens the Spotify stand-in issued (issue 27), kept so that a sign-in made with one start of the
-- emulator still works with the next (each musicsync command starts the embedded emulator anew).
-- The stand-in's generated data is not here: it is made again, the same, from the seed and catalogue.
CREATE TABLE `spotify_tokens` (
	`token` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`grant` text NOT NULL,
	`client_id` text NOT NULL,
	`scope` text NOT NULL,
	`expires_at` integer
);
