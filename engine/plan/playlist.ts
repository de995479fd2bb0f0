/**
 * Playlist targets: created by title when not found, its title, description and privacy kept as the
 * recipe says, rows removed and added in batches, then moved into the desired order.
 */
import { chunk } from "../../shared/chunk.js";
import { sameDescription, sameTitle, serviceDescription, serviceTitle } from "../recipe/service-text.js";
import type { PlaylistTarget } from "../recipe/types.js";
import { applyCap } from "./cap.js";
import { addsOf, type Draft, type PlanInput } from "./core.js";
import { draftPlan } from "./draft.js";
import { finishPlan } from "./finish.js";
import { fewestMoves } from "./moves.js";
import { describeOwned } from "./ownership.js";
import { playlistRules, rowEdits } from "./playlist-rows.js";
import type { MoveStep, Plan, PlanAction } from "./types.js";

export function planPlaylist(input: PlanInput, target: PlaylistTarget): Plan {
  const { actual, policy } = input;
  const draft = draftPlan(input, playlistRules);
  applyCap(draft);
  if (!actual.exists && !target.playlist.title) {
    draft.errors.push(`playlist ${target.playlist.id ?? "?"} was not found`);
  }
  if (!actual.exists) return finishPlan(draft, createActions(draft, target), []);
  if (actual.playlistId === null) return finishPlan(draft, [], []);
  const actions: PlanAction[] = [];
  const edit = metadataEdit(draft, target, actual.playlistId);
  if (edit) actions.push(edit);
  actions.push(...rowEdits(draft, actual.playlistId));
  let moves: MoveStep[] = [];
  if (policy.order === "source" && (policy.mode === "mirror" || policy.mode === "sync")) {
    const order = fewestMoves(draft);
    moves = order.moves;
    for (const part of chunk(moves, policy.batch_size)) {
      actions.push({ kind: "move_playlist_items", playlistId: actual.playlistId, moves: part });
    }
    for (const entry of order.moved) if (entry.line.op === "keep") entry.line.op = "move";
  }
  return finishPlan(draft, actions, moves);
}

/** A playlist not found by title is created with the first batch of adds; the rest follow. */
function createActions(draft: Draft, target: PlaylistTarget): PlanAction[] {
  const { recipe } = draft.desired;
  const [first = [], ...rest] = chunk(
    addsOf(draft).map((e) => e.key),
    draft.policy.batch_size,
  );
  const actions: PlanAction[] = [
    {
      kind: "create_playlist",
      title: serviceTitle(target.playlist.title ?? recipe.id),
      description: describeOwned(target.playlist.description, recipe.id),
      privacy: target.playlist.privacy ?? "PRIVATE",
      videoIds: first,
    },
  ];
  for (const ids of rest) actions.push({ kind: "add_playlist_items", playlistId: null, videoIds: ids });
  return actions;
}

function metadataEdit(draft: Draft, target: PlaylistTarget, playlistId: string): PlanAction | null {
  const { actual, owned } = draft;
  const edit: Extract<PlanAction, { kind: "edit_playlist" }> = { kind: "edit_playlist", playlistId };
  const p = target.playlist;
  // Compared as the service stores titles: an untrimmed title would otherwise be edited on every run.
  if (p.title !== null && !sameTitle(p.title, actual.title)) edit.title = serviceTitle(p.title);
  // A playlist the engine made by title keeps its marker; an adopted one gets the text as written.
  const description =
    owned.playlist && p.id === null
      ? describeOwned(p.description, draft.desired.recipe.id)
      : (p.description ?? null);
  if (description !== null && !sameDescription(description, actual.description))
    edit.description = serviceDescription(description);
  if (p.privacy !== null && p.privacy !== actual.privacy) edit.privacy = p.privacy;
  return Object.keys(edit).length > 2 ? edit : null;
}
