-- ISRCs of songs (issue 27): what other services give for a recording, and what the service's search
-- answers with that song alone. Null in a catalogue made before until the emulator fills them in
-- (emulator/catalogue/isrcs.ts draws them from the seed and each song's id, nothing else).
ALTER TABLE `songs` ADD `isrc` text;--> statement-breakpoint
CREATE INDEX `songs_isrc` ON `songs` (`isrc`);