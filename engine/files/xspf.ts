/** XSPF (xspf.org): <playlist><trackList><track> with title, creator, album, duration in ms. */
import type { SongEntry } from "../match/entry.js";
import { parseDuration, type Rows } from "./entry-fields.js";
import { FileSourceError } from "./errors.js";
import { joinArtists } from "./song-text.js";
import { videoIdOfUrl, watchUrl } from "./video-url.js";
import { parseXml, type XmlElement } from "./xml.js";

function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name);
}

function childText(element: XmlElement, name: string): string | null {
  return child(element, name)?.text ?? null;
}

/** The first location or identifier that is a YouTube URL; "isrc:…" identifiers give the ISRC. */
function ids(track: XmlElement): { videoId: string | null; isrc: string | null } {
  let videoId: string | null = null;
  let isrc: string | null = null;
  for (const c of track.children) {
    if (c.name !== "location" && c.name !== "identifier") continue;
    const value = c.text.trim();
    if (/^isrc:/i.test(value)) isrc ??= value.slice(5);
    else videoId ??= videoIdOfUrl(value);
  }
  return { videoId, isrc };
}

export function readXspf(text: string, rows: Rows): void {
  const root = parseXml(text);
  if (root.name !== "playlist")
    throw new FileSourceError(`the root element is <${root.name}>, not <playlist>`, 1);
  const trackList = child(root, "trackList");
  for (const track of trackList?.children ?? []) {
    if (track.name !== "track") continue;
    rows.add(track.line, {
      title: childText(track, "title"),
      artists: childText(track, "creator"),
      album: childText(track, "album"),
      durationSeconds: parseDuration(childText(track, "duration"), "ms"),
      ...ids(track),
    });
  }
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function trackXml(e: SongEntry): string {
  const fields: [string, string | null][] = [
    ["location", e.videoId === null ? null : watchUrl(e.videoId)],
    ["identifier", e.isrc === null ? null : `isrc:${e.isrc}`],
    ["title", e.title],
    ["creator", e.artists.length > 0 ? joinArtists(e.artists) : null],
    ["album", e.album],
    ["duration", e.durationSeconds === null ? null : String(Math.round(e.durationSeconds * 1000))],
  ];
  const inner = fields
    .filter((f): f is [string, string] => f[1] !== null)
    .map(([name, value]) => `      <${name}>${escapeXml(value)}</${name}>`);
  return ["    <track>", ...inner, "    </track>"].join("\n");
}

export function writeXspf(entries: readonly SongEntry[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<playlist version="1" xmlns="http://xspf.org/ns/0/">',
    "  <trackList>",
    ...entries.map(trackXml),
    "  </trackList>",
    "</playlist>",
    "",
  ].join("\n");
}
