CREATE INDEX `albums_year` ON `albums` (`year`);--> statement-breakpoint
CREATE INDEX `playlists_views` ON `playlists` (`views`);--> statement-breakpoint
CREATE INDEX `songs_type_views` ON `songs` (`video_type`,`views`);