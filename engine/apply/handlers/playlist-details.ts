/** edit_playlist: a playlist's title, description and privacy. */
import { sameDescription, sameTitle } from "../../recipe/service-text.js";
import { readTarget } from "../../targets/read.js";
import { verifying } from "../session.js";
import { type ActionOf, checkedHandler } from "./handler.js";

type Edit = ActionOf<"edit_playlist">;

export const editPlaylist = checkedHandler<Edit>({
  kind: "edit_playlist",
  request: (s, { playlistId, title, description, privacy }) => {
    const opts = {
      ...(title !== undefined ? { title } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(privacy !== undefined ? { privacyStatus: privacy } : {}),
    };
    return () => s.ctx.client.editPlaylist(playlistId, opts);
  },
  // Only the playlist's details are compared, so a read of its rows cut short does not matter here.
  verify: async (s, { playlistId, title, description, privacy }) => {
    const read = await verifying(() =>
      readTarget(s.spec, s.ctx.client, { recipeId: s.recipeId, ownedPlaylistId: playlistId }),
    );
    const a = read.actual;
    return (
      // As the service stores them (it trims titles): an exact match would miss a done edit.
      (title === undefined || sameTitle(a.title, title)) &&
      (description === undefined || sameDescription(a.description, description)) &&
      (privacy === undefined || a.privacy === privacy)
    );
  },
});
