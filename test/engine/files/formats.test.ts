import { describe, expect, it } from "vitest";
import { type FileFormat, formatOf, readEntries } from "../../../engine/files/index.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const read = (text: string, fileName: string, extra: object = {}) =>
  readEntries(utf8(text), { fileName, ...extra });

describe("CSV", () => {
  it("reads an Exportify export: ms durations, comma-joined artists, quoted fields, CRLF", () => {
    const csv =
      '"Track URI","Track Name","Album Name","Artist Name(s)","Duration (ms)","Explicit","ISRC"\r\n' +
      '"spotify:track:1","Hey, Jude","The Beatles 1967-1970","The Beatles","431333","false","GBAYE0601477"\r\n' +
      '"spotify:track:2","Say ""Hi""\nagain","Album","Artist A,Artist B","215000","true","us-rc1-76-07839"\r\n';
    const { format, entries, issues } = read(csv, "liked.csv");
    expect(format).toBe("csv");
    expect(issues).toEqual([]);
    expect(entries).toEqual([
      {
        title: "Hey, Jude",
        artists: ["The Beatles"],
        album: "The Beatles 1967-1970",
        durationSeconds: 431.333,
        isrc: "GBAYE0601477",
        explicit: false,
        videoId: null,
        line: 2,
      },
      {
        title: 'Say "Hi"\nagain',
        artists: ["Artist A", "Artist B"],
        album: "Album",
        durationSeconds: 215,
        isrc: "USRC17607839",
        explicit: true,
        videoId: null,
        line: 3,
      },
    ]);
  });

  it("detects ; and tab delimiters and reads TuneMyMusic / iTunes headers with m:ss times", () => {
    const semi = read("Title;Artist;Album;Duration\nSong;Someone;LP;3:45\n", "tmm.csv");
    expect(semi.entries[0]).toMatchObject({ title: "Song", artists: ["Someone"], durationSeconds: 225 });
    const tab = read("Name\tArtist\tAlbum\tTime\nSong\tSomeone\tLP\t245\n", "itunes.txt", { format: "csv" });
    expect(tab.entries[0]).toMatchObject({ title: "Song", album: "LP", durationSeconds: 245 });
  });

  it("uses the recipe's mapping over known headers, with its duration unit", () => {
    const csv = "Name,Song,Performer,Len\nignored,Real title,Band,200000\n";
    const columns = { title: "song", artists: "PERFORMER", duration: "Len", duration_unit: "ms" as const };
    const { entries } = read(csv, "x.csv", { columns });
    expect(entries[0]).toMatchObject({ title: "Real title", artists: ["Band"], durationSeconds: 200 });
    expect(() => read(csv, "x.csv", { columns: { title: "Nope" } })).toThrow(/no column "Nope"/);
  });

  it("refuses a CSV whose header names no title column", () => {
    expect(() => read("a,b\n1,2\n", "x.csv")).toThrow(/no title column/);
  });

  it("turns rows without a title and bad video ids into issues with their lines", () => {
    const csv = "Track Name,Artist Name(s),Video ID\n,Nobody,\nGood,A,dQw4w9WgXcQ\nBad,A,not-an-id\n\n";
    const { entries, issues } = read(csv, "x.csv");
    expect(entries).toMatchObject([{ title: "Good", videoId: "dQw4w9WgXcQ", line: 3 }]);
    expect(issues).toEqual([
      { line: 2, message: "no title" },
      { line: 4, message: '"not-an-id" is not a YouTube video id' },
    ]);
  });

  it("reports an unclosed quote at the row where it starts", () => {
    const { entries, issues } = read('Title\nfine\n"never closed\nmore\n', "x.csv");
    expect(entries.map((e) => e.title)).toEqual(["fine"]);
    expect(issues).toEqual([{ line: 3, message: "a quoted field is never closed" }]);
  });
});

describe("M3U", () => {
  it("reads #EXTINF lines, YouTube locations and file names without #EXTINF", () => {
    const m3u = [
      "#EXTM3U",
      '#EXTINF:215 tvg-name="a,b",Daft Punk - One More Time',
      "https://music.youtube.com/watch?v=FGBhQbmPwH8",
      "#EXTINF:-1,Just A Title",
      "https://youtu.be/dQw4w9WgXcQ",
      "C:\\Music\\Queen - Bohemian Rhapsody.mp3",
      "file:///music/Nina%20Simone%20-%20Feeling%20Good.flac",
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    ].join("\n");
    const { entries, issues } = read(m3u, "list.m3u8");
    expect(entries).toEqual([
      expect.objectContaining({
        title: "One More Time",
        artists: ["Daft Punk"],
        durationSeconds: 215,
        videoId: "FGBhQbmPwH8",
        line: 2,
      }),
      expect.objectContaining({ title: "Just A Title", artists: [], durationSeconds: null, line: 4 }),
      expect.objectContaining({ title: "Bohemian Rhapsody", artists: ["Queen"], videoId: null, line: 6 }),
      expect.objectContaining({ title: "Feeling Good", artists: ["Nina Simone"], line: 7 }),
    ]);
    expect(entries[1]!.videoId).toBe("dQw4w9WgXcQ");
    // A bare URL names no song.
    expect(issues).toEqual([{ line: 8, message: "no title" }]);
  });
});

describe("XSPF", () => {
  it("reads tracks with entities, CDATA, ms durations, ISRC identifiers and locations", () => {
    const xspf = `<?xml version="1.0" encoding="UTF-8"?>
<!-- exported -->
<playlist version="1" xmlns="http://xspf.org/ns/0/">
  <title>Mix</title>
  <trackList>
    <track>
      <location>file:///x.mp3</location>
      <location>https://music.youtube.com/watch?v=FGBhQbmPwH8&amp;list=RD</location>
      <identifier>isrc:GBDUW0000059</identifier>
      <title>Rock &amp; Roll &#x263A;</title>
      <creator><![CDATA[Led <Zeppelin>]]></creator>
      <album>IV</album>
      <duration>220000</duration>
    </track>
    <track><creator>No title</creator></track>
  </trackList>
</playlist>`;
    const { entries, issues } = read(xspf, "mix.xspf");
    expect(entries).toEqual([
      {
        title: "Rock & Roll \u263A",
        artists: ["Led <Zeppelin>"],
        album: "IV",
        durationSeconds: 220,
        isrc: "GBDUW0000059",
        explicit: null,
        videoId: "FGBhQbmPwH8",
        line: 6,
      },
    ]);
    expect(issues).toEqual([{ line: 15, message: "no title" }]);
  });

  it("refuses malformed XML with the line, and a root that is not <playlist>", () => {
    expect(() => read("<playlist>\n<trackList>\n</playlist>", "x.xspf")).toThrow(
      expect.objectContaining({ line: 3, message: expect.stringMatching(/does not close <trackList>/) }),
    );
    expect(() => read("<html></html>", "x.xspf")).toThrow(/not <playlist>/);
    expect(() => read("<playlist>&nbsp;</playlist>", "x.xspf")).toThrow(/unknown or malformed entity/);
  });
});

describe("JSON", () => {
  it("reads an array with list or string artists, duration or duration_ms, and finds bad rows' lines", () => {
    const json = `[
  {"title": "A", "artists": ["X", "Y"], "duration": 200, "videoId": "dQw4w9WgXcQ", "explicit": true},
  {"title": "B", "artists": "P, Q", "duration_ms": 150500, "album": "LP", "isrc": "GBAYE0601477"},
  {"artists": ["no title \\" here ]"]},
  "not an object"
]`;
    const { entries, issues } = read(json, "x.json");
    expect(entries).toEqual([
      expect.objectContaining({
        title: "A",
        artists: ["X", "Y"],
        durationSeconds: 200,
        explicit: true,
        line: 2,
      }),
      expect.objectContaining({
        title: "B",
        artists: ["P", "Q"],
        durationSeconds: 150.5,
        album: "LP",
        line: 3,
      }),
    ]);
    expect(issues).toEqual([
      { line: 4, message: "no title" },
      { line: 5, message: "a track must be an object" },
    ]);
  });

  it('reads a {"tracks": [...]} wrapping, lines counted past other keys', () => {
    const json = '{"name": "x", "other": [{"title": "no"}],\n "tracks": [\n  {"title": "T"},\n  {}\n]}';
    const { entries, issues } = read(json, "x.json");
    expect(entries).toMatchObject([{ title: "T", line: 3 }]);
    expect(issues).toEqual([{ line: 4, message: "no title" }]);
  });

  it("refuses JSON that is not a track array, and invalid JSON", () => {
    expect(() => read('{"title": "x"}', "x.json")).toThrow(/must be an array of tracks/);
    expect(() => read('"just a string"', "x.json")).toThrow(/must be an array of tracks/);
    expect(() => read("[1,}", "x.json")).toThrow(/not valid JSON/);
  });
});

describe("plain text", () => {
  it("reads Artist - Title (hyphen or en dash), skips blanks and comments, title only without a separator", () => {
    const text = "# my list\nQueen - Bohemian Rhapsody\n\nSigur Rós – Hoppípolla\nJust a title\nA - B - C\n";
    const { entries } = read(text, "list.txt");
    expect(entries.map((e) => [e.artists, e.title, e.line])).toEqual([
      [["Queen"], "Bohemian Rhapsody", 2],
      [["Sigur Rós"], "Hoppípolla", 4],
      [[], "Just a title", 5],
      [["A"], "B - C", 6],
    ]);
  });
});

describe("formatOf", () => {
  it.each<[string, string | undefined, FileFormat]>([
    ["a.CSV", undefined, "csv"],
    ["a.m3u8", undefined, "m3u"],
    ["a.xspf", undefined, "xspf"],
    ["a.json", undefined, "json"],
    ["a.txt", "Track Name,Artist\n", "text"],
    ["export", "#EXTM3U\n", "m3u"],
    ["export", '<?xml version="1.0"?><playlist>', "xspf"],
    ["export", "[{}]", "json"],
    ["export", "Track Name;Artist\nx;y", "csv"],
    ["export", "Queen - Bohemian Rhapsody", "text"],
  ])("%s with %j is %s", (name, text, format) => {
    expect(formatOf(name, text)).toBe(format);
  });
});
