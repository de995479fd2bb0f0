import { ArgumentError, ParseError } from "../errors.js";
import { parseAlbum } from "../parsers/album.js";
import {
  artistAlbumsOrderToken,
  firstSection,
  parseArtist,
  parseArtistAlbumList,
  parseArtistAlbumsPage,
  parseUser,
} from "../parsers/artist.js";
import { classicToken } from "../parsers/continuation-tokens.js";
import { parseMixedContent } from "../parsers/home.js";
import { get, type JsonObject, list, mustList, type Path } from "../parsers/nav.js";
import { SC_SECTION_LIST, SC_SECTIONS, SL } from "../parsers/paths.js";
import { parseUserPlaylists, parseUserVideos } from "../parsers/user.js";
import type { OperationContext } from "../transport/operation-context.js";
import {
  type Album,
  ARTIST_ALBUM_ORDERS,
  type Artist,
  type ArtistAlbum,
  type HomeRow,
  type PlaylistCard,
  type User,
  type VideoCard,
} from "../types/browsing.js";
import { browsePage, parseFor } from "./context.js";
import { ctokenParams, followClassic } from "./continuations.js";
import { checkLimit } from "./search.js";

const RELATED_SECTIONS: Path = ["contents", ...SL];

function checkId(operation: string, argument: string, value: unknown): string {
  if (typeof value !== "string" || value === "") {
    throw new ArgumentError(argument, "must be a non-empty string", { operation });
  }
  return value;
}

function checkString(operation: string, argument: string, value: unknown): string {
  if (typeof value !== "string") throw new ArgumentError(argument, "must be a string", { operation });
  return value;
}

/**
 * `get_home`: the home feed's rows, fetching continuation pages until `limit` rows (whole pages, so
 * possibly more) or the end.
 */
export async function getHome(
  ctx: OperationContext,
  options: { limit?: number | null } = {},
): Promise<HomeRow[]> {
  const operation = "get_home";
  const limit = checkLimit(operation, options.limit === undefined ? 3 : options.limit);
  const body: JsonObject = { browseId: "FEmusic_home" };
  const response = await ctx.send({ operation, endpoint: "browse", body });
  const notes = ctx.notes(operation);
  const rows = parseFor(operation, () => parseMixedContent(mustList(response, SC_SECTIONS), notes));
  const more = await followClassic(ctx, {
    operation,
    endpoint: "browse",
    body,
    token: classicToken(get(response, SC_SECTION_LIST)),
    type: "sectionListContinuation",
    limit: limit === null ? null : limit - rows.length,
    parse: (page) => parseFor(operation, () => parseMixedContent(list(page, ["contents"]), notes)),
  });
  for (const row of more) rows.push(row);
  return rows;
}

/** `get_artist`: an artist page (a leading `MPLA` of the id is removed, as the web client does). */
export async function getArtist(ctx: OperationContext, channelId: string): Promise<Artist> {
  const operation = "get_artist";
  const id = checkId(operation, "channelId", channelId);
  const browseId = id.startsWith("MPLA") ? id.slice(4) : id;
  return browsePage(ctx, operation, { browseId }, parseArtist);
}

export interface ArtistAlbumsOptions {
  /** At least this many albums (whole pages); default 100, `null` = all. */
  limit?: number | null;
  /** `Recency`, `Popularity` or `Alphabetical order` (any case); default the page's own order. */
  order?: string | null;
}

/** `get_artist_albums`: the full album (or singles, shows) list of an artist. */
export async function getArtistAlbums(
  ctx: OperationContext,
  channelId: string,
  params: string,
  options: ArtistAlbumsOptions = {},
): Promise<ArtistAlbum[]> {
  const operation = "get_artist_albums";
  checkString(operation, "channelId", channelId);
  checkString(operation, "params", params);
  const limit = checkLimit(operation, options.limit === undefined ? 100 : options.limit);
  const order = options.order ?? null;
  let orderTitle: string | null = null;
  if (order !== null) {
    orderTitle =
      ARTIST_ALBUM_ORDERS.find((o) => typeof order === "string" && o.toLowerCase() === order.toLowerCase()) ??
      null;
    if (orderTitle === null) {
      throw new ArgumentError("order", `must be one of ${ARTIST_ALBUM_ORDERS.join(", ")}`, { operation });
    }
  }
  const body: JsonObject = { browseId: channelId, params };
  const notes = ctx.notes(operation);
  let response = await ctx.send({ operation, endpoint: "browse", body });
  let section: unknown;
  if (orderTitle !== null) {
    const title = orderTitle;
    const token = parseFor(operation, () => artistAlbumsOrderToken(response, title));
    if (token === null) {
      throw new ParseError(
        "contents.singleColumnBrowseResultsRenderer.tabs[0].tabRenderer.content.sectionListRenderer.header",
        `the page offers no sort option \`${title}\``,
        { operation },
      );
    }
    response = await ctx.send({ operation, endpoint: "browse", body, additionalParams: ctokenParams(token) });
    section = get(response, ["continuationContents", "sectionListContinuation", "contents", 0]);
  } else {
    section = firstSection(response);
  }
  const page = parseFor(operation, () => parseArtistAlbumsPage(section, notes));
  const albums = page.items;
  if (page.grid !== null) {
    const more = await followClassic(ctx, {
      operation,
      endpoint: "browse",
      body,
      token: classicToken(page.grid),
      type: "gridContinuation",
      limit: limit === null ? null : limit - albums.length,
      parse: (grid) => parseFor(operation, () => parseArtistAlbumList(list(grid, ["items"]), notes)),
    });
    for (const album of more) albums.push(album);
  }
  return albums;
}

/** `get_album`: an album page with its tracks. */
export async function getAlbum(ctx: OperationContext, browseId: string): Promise<Album> {
  const operation = "get_album";
  const id = checkId(operation, "browseId", browseId);
  if (!id.startsWith("MPRE")) {
    throw new ArgumentError("browseId", "must be an album browse id (starting with `MPRE`)", { operation });
  }
  return browsePage(ctx, operation, { browseId: id }, parseAlbum);
}

/** Undoes the `\uXXXX` / `\xNN` escapes of the JSON embedded in the playlist page's scripts. */
export function unescapePage(text: string): string {
  return text.replace(
    /\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/g,
    (_, u: string | undefined, x: string | undefined) =>
      String.fromCharCode(Number.parseInt((u ?? x) as string, 16)),
  );
}

/** The album browse id in a playlist page: the first double-quoted token starting with `MPRE`. */
export function albumBrowseIdOfPage(html: string): string | null {
  const match = /"(MPRE[^"]*)"/.exec(unescapePage(html));
  return match === null ? null : (match[1] as string);
}

/** `get_album_browse_id`: an album's `MPRE…` id from its audio playlist id (`OLAK5uy_…`). */
export async function getAlbumBrowseId(
  ctx: OperationContext,
  audioPlaylistId: string,
): Promise<string | null> {
  const operation = "get_album_browse_id";
  const id = checkId(operation, "audioPlaylistId", audioPlaylistId);
  const response = await ctx.raw({
    operation,
    method: "GET",
    url: `${ctx.origin}/playlist?list=${encodeURIComponent(id)}`,
    authenticated: ctx.authKind !== null,
  });
  return albumBrowseIdOfPage(await response.text());
}

/** `get_user`: a user (profile) page with its videos and playlists carousels. */
export async function getUser(ctx: OperationContext, channelId: string): Promise<User> {
  const operation = "get_user";
  const browseId = checkId(operation, "channelId", channelId);
  return browsePage(ctx, operation, { browseId }, parseUser);
}

/** `get_user_playlists`: all playlists of a user (`params` from `getUser(...).playlists.params`). */
export async function getUserPlaylists(
  ctx: OperationContext,
  channelId: string,
  params: string,
): Promise<PlaylistCard[]> {
  const operation = "get_user_playlists";
  checkId(operation, "channelId", channelId);
  checkString(operation, "params", params);
  return browsePage(ctx, operation, { browseId: channelId, params }, parseUserPlaylists);
}

/** `get_user_videos`: all videos of a user (`params` from `getUser(...).videos.params`). */
export async function getUserVideos(
  ctx: OperationContext,
  channelId: string,
  params: string,
): Promise<VideoCard[]> {
  const operation = "get_user_videos";
  checkId(operation, "channelId", channelId);
  checkString(operation, "params", params);
  return browsePage(ctx, operation, { browseId: channelId, params }, parseUserVideos);
}

/** `get_song_related`: the rows of a song's "Related" tab (`related` from `getWatchPlaylist`). */
export async function getSongRelated(ctx: OperationContext, browseId: string): Promise<HomeRow[]> {
  const operation = "get_song_related";
  const id = checkId(operation, "browseId", browseId);
  return browsePage(ctx, operation, { browseId: id }, (response, notes) =>
    parseMixedContent(mustList(response, RELATED_SECTIONS), notes, "get_song_related"),
  );
}
