-- Changes made to the other services' stand-ins through their controls (issue 27), replayed on the
-- data generated again from the seed at each start, so that they outlive a restart.
CREATE TABLE `stand_in_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`service` text NOT NULL,
	`change` text NOT NULL
);
