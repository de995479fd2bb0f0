-- Trigram index over songs.search_text for substring search (LIKE '%…%' with 3+ characters).
-- External content: the catalogue generator fills it with a 'rebuild' once the songs are written.
CREATE VIRTUAL TABLE `songs_fts` USING fts5(`search_text`, content=`songs`, content_rowid=`id`, tokenize='trigram');
