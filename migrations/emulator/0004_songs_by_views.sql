-- Songs' search text in order of popularity, so that a trigram LIKE read in rowid order meets the
-- most viewed matches first and stops at its LIMIT instead of collecting and sorting every match
-- of a common word. Songs (MUSIC_VIDEO_TYPE_ATV) come first, rowid = their rank by views; videos
-- (every other type) follow from rowid 1,000,000,001 on, ranked the same way, so each search kind
-- reads one rowid range. It replaces the id-ordered `songs_fts` of 0002. Filled here for an
-- existing catalogue; the catalogue generator fills it for a new one.
DROP TABLE IF EXISTS `songs_fts`;--> statement-breakpoint
CREATE VIRTUAL TABLE `songs_by_views` USING fts5(`search_text`, `song_id` UNINDEXED, tokenize='trigram');--> statement-breakpoint
INSERT INTO `songs_by_views` (`rowid`, `search_text`, `song_id`)
  SELECT (CASE WHEN `video_type` = 'MUSIC_VIDEO_TYPE_ATV' THEN 0 ELSE 1000000000 END)
    + row_number() OVER (PARTITION BY `video_type` = 'MUSIC_VIDEO_TYPE_ATV' ORDER BY `views` DESC, `id`),
    `search_text`, `id`
  FROM `songs`;