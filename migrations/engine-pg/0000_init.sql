CREATE TABLE "account_health" (
	"account" text PRIMARY KEY NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"suspended_at" bigint,
	"suspended_reason" text
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"name" text PRIMARY KEY NOT NULL,
	"settings" text NOT NULL,
	"sealed" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approvals" (
	"run_id" integer PRIMARY KEY NOT NULL,
	"recipe_id" text NOT NULL,
	"account" text NOT NULL,
	"plan" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" bigint NOT NULL,
	"status" text NOT NULL,
	"decided_at" bigint,
	"applied_run_id" integer
);
--> statement-breakpoint
CREATE TABLE "conditions" (
	"recipe_id" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"message" text NOT NULL,
	"changed_at" bigint NOT NULL,
	CONSTRAINT "conditions_recipe_id_type_pk" PRIMARY KEY("recipe_id","type")
);
--> statement-breakpoint
CREATE TABLE "journal" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"payload" text NOT NULL,
	"status" text NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"result" text,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "locks" (
	"account" text PRIMARY KEY NOT NULL,
	"lock_id" text NOT NULL,
	"holder" text NOT NULL,
	"acquired_at" bigint NOT NULL,
	"heartbeat_at" bigint NOT NULL,
	CONSTRAINT "locks_lock_id_unique" UNIQUE("lock_id")
);
--> statement-breakpoint
CREATE TABLE "match_cache" (
	"entry_key" text PRIMARY KEY NOT NULL,
	"video_id" text,
	"score" double precision,
	"reasons" text NOT NULL,
	"matched_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "owned_playlists" (
	"account" text NOT NULL,
	"recipe_id" text NOT NULL,
	"target" text NOT NULL,
	"playlist_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "owned_playlists_account_playlist_id_pk" PRIMARY KEY("account","playlist_id")
);
--> statement-breakpoint
CREATE TABLE "owned_rows" (
	"id" serial PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"target" text NOT NULL,
	"item_key" text NOT NULL,
	"set_video_id" text,
	"added_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recipe_generations" (
	"recipe_id" text NOT NULL,
	"generation" integer NOT NULL,
	"hash" text NOT NULL,
	"seen_at" bigint NOT NULL,
	CONSTRAINT "recipe_generations_recipe_id_generation_pk" PRIMARY KEY("recipe_id","generation")
);
--> statement-breakpoint
CREATE TABLE "recipe_health" (
	"recipe_id" text PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"suspended_at" bigint,
	"suspended_reason" text,
	"next_run_at" bigint,
	"next_run_reason" text,
	"planned_by" text,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "run_before" (
	"run_id" integer PRIMARY KEY NOT NULL,
	"recipe_id" text NOT NULL,
	"account" text NOT NULL,
	"target" text NOT NULL,
	"taken_at" bigint NOT NULL,
	"plan" text NOT NULL,
	"before" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"recipe_id" text NOT NULL,
	"account" text NOT NULL,
	"kind" text NOT NULL,
	"recipe_hash" text NOT NULL,
	"started_at" bigint NOT NULL,
	"finished_at" bigint,
	"result" text NOT NULL,
	"counts" text,
	"error" text,
	"holder" text
);
--> statement-breakpoint
CREATE TABLE "source_reads" (
	"recipe_id" text NOT NULL,
	"source_id" text NOT NULL,
	"items" integer NOT NULL,
	"read_at" bigint NOT NULL,
	CONSTRAINT "source_reads_recipe_id_source_id_pk" PRIMARY KEY("recipe_id","source_id")
);
--> statement-breakpoint
CREATE TABLE "target_snapshots" (
	"account" text NOT NULL,
	"target" text NOT NULL,
	"recipe_id" text NOT NULL,
	"run_id" integer,
	"taken_at" bigint NOT NULL,
	"fingerprint" text NOT NULL,
	"rows" text NOT NULL,
	"meta" text,
	CONSTRAINT "target_snapshots_account_target_pk" PRIMARY KEY("account","target")
);
--> statement-breakpoint
CREATE TABLE "tombstones" (
	"account" text NOT NULL,
	"target" text NOT NULL,
	"item_key" text NOT NULL,
	"recipe_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "tombstones_account_target_item_key_pk" PRIMARY KEY("account","target","item_key")
);
--> statement-breakpoint
CREATE INDEX "approvals_recipe" ON "approvals" USING btree ("recipe_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "journal_run_seq" ON "journal" USING btree ("run_id","seq");--> statement-breakpoint
CREATE INDEX "journal_status" ON "journal" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "owned_playlists_recipe" ON "owned_playlists" USING btree ("account","recipe_id");--> statement-breakpoint
CREATE INDEX "owned_rows_target" ON "owned_rows" USING btree ("account","target","item_key");--> statement-breakpoint
CREATE INDEX "runs_recipe_started" ON "runs" USING btree ("recipe_id","started_at");--> statement-breakpoint
CREATE INDEX "runs_result" ON "runs" USING btree ("result");--> statement-breakpoint
CREATE INDEX "target_snapshots_recipe" ON "target_snapshots" USING btree ("recipe_id");