-- Songs that make matching by search hard (issue 13): a second artist, a title's Latin spelling,
-- what kind of look-alike a song is and which song it is a variant of; an artist's Latin name.
-- Null for every row of a catalogue made before: such a catalogue has no look-alikes.
ALTER TABLE `artists` ADD `latin_name` text;--> statement-breakpoint
ALTER TABLE `songs` ADD `featured_artist_id` integer;--> statement-breakpoint
ALTER TABLE `songs` ADD `latin_title` text;--> statement-breakpoint
ALTER TABLE `songs` ADD `lookalike` text;--> statement-breakpoint
ALTER TABLE `songs` ADD `variant_of` integer;