/**
 * The viewer's marks on what a page shows (likes, library, saved collections), read from the store
 * before rendering so that renderers stay pure. A page of rows asks for its ids at once (`prefetch`:
 * two queries); anything else is read when first asked and kept for the request.
 */
import type { Marks } from "../render/items.js";
import type { Store } from "../store/store.js";

export interface PageMarks extends Marks {
  /** Reads the marks of these ids in one go. */
  prefetch(ids: readonly string[]): void;
}

const SIGNED_OUT: PageMarks = {
  likeStatus: () => "INDIFFERENT",
  inLibrary: () => false,
  saved: () => false,
  signedIn: false,
  prefetch: () => {},
};

export function marksFor(store: Store, accountId: number | null): PageMarks {
  if (accountId === null) return SIGNED_OUT;
  const library = store.library;
  const ratings = new Map<string, string>();
  /** Ids whose library items are all known, and those items as "kind\nid". */
  const known = new Set<string>();
  const items = new Set<string>();
  const rating = (id: string) => {
    let r = ratings.get(id);
    if (r === undefined) {
      r = library.rating(accountId, id);
      ratings.set(id, r);
    }
    return r;
  };
  return {
    signedIn: true,
    likeStatus: rating,
    saved: (playlistId) => rating(playlistId) === "LIKE",
    inLibrary: (kind, id) =>
      known.has(id) ? items.has(`${kind}\n${id}`) : library.inLibrary(accountId, kind, id),
    prefetch(ids) {
      const fresh = ids.filter((id) => !known.has(id));
      if (fresh.length === 0) return;
      for (const id of fresh) {
        ratings.set(id, "INDIFFERENT");
        known.add(id);
      }
      for (const r of library.ratingsOf(accountId, fresh)) ratings.set(r.targetId, r.rating);
      for (const i of library.libraryItemsOf(accountId, fresh)) items.add(`${i.kind}\n${i.targetId}`);
    },
  };
}
