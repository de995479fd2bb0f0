/**
 * `browse`: one dispatcher by browseId prefix (docs/PROTOCOL.md#ids), and continuations by token (query
 * `ctoken`/`continuation` or body `continuation`, docs/PROTOCOL.md#continuations).
 */
import type { ApiContext } from "../context.js";
import { invalidArgument, notFound } from "../errors.js";
import { readBrowseContinuation } from "../library-sort.js";
import { readContinuation } from "../tokens.js";
import {
  albumBrowse,
  artistAlbumsContinuation,
  artistBrowse,
  playlistBrowse,
  playlistNext,
  playlistRelated,
  playlistSuggestions,
} from "./catalogue-pages.js";
import { chartAlbumsBrowse, exploreBrowse, homeContinuation } from "./explore-pages.js";
import { libraryBrowse, libraryContinuation, librarySortReload } from "./library-pages.js";
import {
  channelBrowse,
  episodeBrowse,
  newEpisodesBrowse,
  podcastBrowse,
  podcastContinuation,
} from "./podcast-pages.js";
import { releasesBrowse } from "./releases-pages.js";
import { creditsBrowse, lyricsBrowse, relatedBrowse, tasteProfileBrowse, userBrowse } from "./track-pages.js";
import { str } from "./viewer.js";

export function continuationOf(ctx: ApiContext): string | null {
  return ctx.query.get("ctoken") ?? ctx.query.get("continuation") ?? str(ctx, "continuation");
}

/**
 * A continuation that is not one of the emulator's own tokens: the service's self-contained browse
 * continuation (a browse id and params inside), which the library's sort menu hands out.
 */
function selfContainedContinuation(ctx: ApiContext, token: string): unknown {
  const wrapped = readBrowseContinuation(token);
  const reload = wrapped && librarySortReload(ctx, wrapped.browseId, wrapped.params);
  if (!reload) throw invalidArgument("Invalid continuation token.");
  return reload;
}

export function browseRoute(ctx: ApiContext): unknown {
  const token = continuationOf(ctx);
  if (token) {
    const c = readContinuation(token);
    if (!c) return selfContainedContinuation(ctx, token);
    const id = typeof c.id === "string" ? c.id : "";
    switch (c.k) {
      case "pl":
        return playlistNext(ctx, id, c.o);
      case "pl-suggest":
        return playlistSuggestions(ctx, id, c.o);
      case "pl-related":
        return playlistRelated(ctx, id);
      case "podcast":
        return podcastContinuation(ctx, id, c.o);
      case "home":
        return homeContinuation(ctx, c.o);
      case "artist-albums":
        return artistAlbumsContinuation(ctx, c);
      default: {
        const lib = libraryContinuation(ctx, c);
        if (lib !== null) return lib;
        throw invalidArgument("Invalid continuation token.");
      }
    }
  }
  const raw = ctx.body.browseId;
  if (typeof raw !== "string" || raw === "") throw invalidArgument("Request contains an invalid argument.");
  if (ctx.body.params !== undefined && typeof ctx.body.params !== "string") throw invalidArgument();
  const params = str(ctx, "params");
  const browseId = raw.startsWith("MPLA") ? raw.slice(4) : raw;

  const explore = exploreBrowse(ctx, browseId, params);
  if (explore !== null) return explore;
  const releases = releasesBrowse(ctx, browseId);
  if (releases !== null) return releases;
  const library = libraryBrowse(ctx, browseId, params);
  if (library !== null) return library;
  if (browseId === "FEmusic_tastebuilder") return tasteProfileBrowse(ctx);
  if (browseId === "VLRDPN") return newEpisodesBrowse(ctx);
  if (browseId.startsWith("VL")) return playlistBrowse(ctx, browseId);
  if (browseId.startsWith("MPRE")) return albumBrowse(ctx, browseId);
  if (browseId.startsWith("MPSP")) return podcastBrowse(ctx, browseId.slice(4));
  if (browseId.startsWith("MPED")) return episodeBrowse(ctx, browseId.slice(4));
  if (browseId.startsWith("MPLY")) return lyricsBrowse(ctx, browseId);
  if (browseId.startsWith("MPTR")) return relatedBrowse(ctx, browseId);
  if (browseId.startsWith("MPTC")) return creditsBrowse(ctx, browseId.slice(4));
  if (browseId.startsWith("MPAD")) {
    const page = chartAlbumsBrowse(ctx, browseId.slice(4)) ?? artistBrowse(ctx, browseId.slice(4), params);
    if (page !== null) return page;
    throw notFound();
  }
  if (browseId.startsWith("UC")) {
    const page =
      artistBrowse(ctx, browseId, params) ??
      channelBrowse(ctx, browseId, params) ??
      userBrowse(ctx, browseId, params);
    if (page !== null) return page;
    throw notFound();
  }
  if (browseId.startsWith("FE")) throw notFound();
  throw invalidArgument();
}
