/**
 * Extended M3U: "#EXTINF:<seconds>,<Artist> - <Title>" then the location. Without #EXTINF the
 * location's file name ("Artist - Title.mp3") is all there is; a YouTube URL gives the video id.
 */
import type { SongEntry } from "../match/entry.js";
import type { Draft, Rows } from "./entry-fields.js";
import { rowProblem } from "./limits.js";
import { joinArtistTitle, oneLine, splitArtistTitle } from "./song-text.js";
import { videoIdOfUrl, watchUrl } from "./video-url.js";

interface Pending {
  line: number;
  draft: Draft;
}

/** "#EXTINF:215 tvg-id="a,b",Artist - Title": the display text follows the first comma outside quotes. */
function extinf(line: string): Draft {
  const body = line.slice("#EXTINF:".length);
  let quoted = false;
  let comma = -1;
  for (let i = 0; i < body.length && comma === -1; i++) {
    if (body[i] === '"') quoted = !quoted;
    else if (body[i] === "," && !quoted) comma = i;
  }
  const seconds = Number.parseFloat(body);
  const { artists, title } = splitArtistTitle(comma === -1 ? "" : body.slice(comma + 1));
  return { title, artists, durationSeconds: seconds >= 0 ? seconds : null };
}

/** The file name without folders or extension, percent-decoded when it came from a file: URL. */
function fileTitle(location: string): string {
  let name = location.split(/[\\/]/).pop() ?? "";
  if (/^file:/i.test(location)) {
    try {
      name = decodeURIComponent(name);
    } catch {}
  }
  return name.replace(/\.[A-Za-z0-9]{1,5}$/, "");
}

function fromLocation(location: string, pending: Draft | null): Draft {
  const videoId = videoIdOfUrl(location);
  if (pending?.title) return { ...pending, videoId };
  const known = { durationSeconds: pending?.durationSeconds ?? null, videoId };
  // A URL names no song; only a file name does.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location) && !/^file:/i.test(location))
    return { ...known, title: null };
  return { ...known, ...splitArtistTitle(fileTitle(location)) };
}

export function readM3u(text: string, rows: Rows): void {
  let pending: Pending | null = null;
  let album: string | null = null;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const tooLong = rowProblem("line", line.length);
    if (tooLong) {
      rows.issue(i + 1, tooLong);
      pending = null;
    } else if (/^#EXTINF:/i.test(line)) pending = { line: i + 1, draft: extinf(line) };
    else if (/^#EXTALB:/i.test(line)) album = line.slice("#EXTALB:".length);
    else if (line !== "" && !line.startsWith("#")) {
      const draft = fromLocation(line, pending?.draft ?? null);
      rows.add(pending?.line ?? i + 1, { album, ...draft });
      pending = null;
      album = null;
    }
  }
}

function location(e: SongEntry): string {
  if (e.videoId !== null) return watchUrl(e.videoId);
  // A location players and people can follow, for songs not yet matched; it reads back as no id.
  const query = oneLine([...e.artists, e.title].join(" "));
  return `https://music.youtube.com/search?q=${encodeURIComponent(query)}`;
}

export function writeM3u(entries: readonly SongEntry[]): string {
  const out = ["#EXTM3U"];
  for (const e of entries) {
    const seconds = e.durationSeconds === null ? -1 : Math.round(e.durationSeconds * 1000) / 1000;
    out.push(`#EXTINF:${seconds},${joinArtistTitle(e)}`);
    if (e.album !== null) out.push(`#EXTALB:${oneLine(e.album)}`);
    out.push(location(e));
  }
  return out.join("\n") + "\n";
}
