/**
 * What the schema cannot say of the other services' sources (`spotify`, `listenbrainz`, `lastfm`):
 * which settings go together, and that a Spotify playlist is one. Each problem names the node.
 */
import { spotifyPlaylistId } from "../services/spotify/ids.js";
import type { SourceInput } from "./input.js";
import type { PathIssue } from "./yaml-source.js";

type Of<T extends SourceInput["type"]> = Extract<SourceInput, { type: T }>;

function given<S extends object>(s: S, keys: readonly (keyof S)[]): (keyof S)[] {
  return keys.filter((k) => s[k] !== undefined);
}

function spotifyIssues(s: Of<"spotify">, i: number): PathIssue[] {
  if (given(s, ["playlist", "library"]).length !== 1) {
    return [{ path: ["sources", i], message: "a spotify source needs exactly one of playlist, library" }];
  }
  if (s.playlist !== undefined && spotifyPlaylistId(s.playlist) === null) {
    return [
      {
        path: ["sources", i, "playlist"],
        message:
          "not a Spotify playlist: write its id (22 letters and digits), its open.spotify.com link or its spotify:playlist: URI",
      },
    ];
  }
  return [];
}

function listenBrainzIssues(s: Of<"listenbrainz">, i: number): PathIssue[] {
  const what = given(s, ["series", "playlist", "title", "top"]);
  if (what.length !== 1) {
    return [
      {
        path: ["sources", i],
        message: "a listenbrainz source needs exactly one of series, playlist, title, top",
      },
    ];
  }
  const issues: PathIssue[] = [];
  if (s.playlist === undefined && s.user === undefined) {
    issues.push({
      path: ["sources", i],
      message: `a listenbrainz source with ${String(what[0])} needs user`,
    });
  }
  if (s.playlist !== undefined && s.user !== undefined) {
    issues.push({
      path: ["sources", i, "user"],
      message: "a playlist by MBID needs no user: leave user out",
    });
  }
  if (s.archived !== undefined && s.series === undefined) {
    issues.push({ path: ["sources", i, "archived"], message: "archived goes with series only" });
  }
  return issues;
}

function lastfmIssues(s: Of<"lastfm">, i: number): PathIssue[] {
  if (s.period !== undefined && s.list !== "top") {
    return [{ path: ["sources", i, "period"], message: "period goes with list: top only" }];
  }
  return [];
}

/** The problems of source `i`, when it is one of the other services' sources. */
export function serviceSourceIssues(s: SourceInput, i: number): PathIssue[] {
  switch (s.type) {
    case "spotify":
      return spotifyIssues(s, i);
    case "listenbrainz":
      return listenBrainzIssues(s, i);
    case "lastfm":
      return lastfmIssues(s, i);
    default:
      return [];
  }
}
