import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSourceError, readEntries, readEntriesFile } from "../../../engine/files/index.js";

const utf8 = (text: string) => new TextEncoder().encode(text);

function utf16(text: string, endian: "le" | "be", bom: boolean): Uint8Array {
  const units = Buffer.from((bom ? "\uFEFF" : "") + text, "utf16le");
  if (endian === "be") units.swap16();
  return units;
}

function refusal(run: () => unknown): FileSourceError {
  try {
    run();
  } catch (e) {
    if (e instanceof FileSourceError) return e;
    throw e;
  }
  throw new Error("the file was not refused");
}

const LIST = "Track Name\tArtist Name(s)\r\nCafé\tBjörk\r\n東京\tアーティスト\r\n";
const EXPECTED = [
  ["Café", ["Björk"]],
  ["東京", ["アーティスト"]],
];

describe("encodings", () => {
  it.each([
    ["UTF-8", utf8(LIST)],
    ["UTF-8 with BOM", utf8(`\uFEFF${LIST}`)],
    ["UTF-16 LE with BOM", utf16(LIST, "le", true)],
    ["UTF-16 BE with BOM", utf16(LIST, "be", true)],
    ["UTF-16 LE without BOM", utf16(LIST, "le", false)],
    ["UTF-16 BE without BOM", utf16(LIST, "be", false)],
  ])("reads %s", (_name, bytes) => {
    const { entries } = readEntries(bytes, { fileName: "x.csv" });
    expect(entries.map((e) => [e.title, e.artists])).toEqual(EXPECTED);
  });

  it("refuses invalid UTF-8 with its line, and binary data", () => {
    const bad = Buffer.concat([utf8("Title\nok\nbad "), Buffer.from([0xc3, 0x28]), utf8("\n")]);
    expect(refusal(() => readEntries(bad, { fileName: "x.csv" }))).toMatchObject({
      line: 3,
      message: expect.stringMatching(/not valid UTF-8/),
    });
    const png = Buffer.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
    ]);
    expect(refusal(() => readEntries(png, { fileName: "cover.txt" })).message).toMatch(
      /looks like a binary file/,
    );
    expect(refusal(() => readEntries(new Uint8Array(64), { fileName: "x.m3u" })).message).toMatch(/binary/);
  });

  it("refuses UTF-16 with a lone surrogate", () => {
    const bytes = Buffer.concat([utf16("Title\nok\n", "le", true), Buffer.from([0x00, 0xd8, 0x41, 0x00])]);
    expect(refusal(() => readEntries(bytes, { fileName: "x.csv" }))).toMatchObject({ line: 3 });
  });
});

describe("bounds", () => {
  it("refuses a file over 20 MiB, by stat before reading", async () => {
    const dir = await mkdtemp(join(tmpdir(), "files-"));
    try {
      const path = join(dir, "big.csv");
      await writeFile(path, "Title\n");
      await truncate(path, 21 * 1024 * 1024);
      await expect(readEntriesFile(path, {})).rejects.toThrow(
        /21.0 MiB; a playlist file may be at most 20.0 MiB/,
      );
      expect(() => readEntries(new Uint8Array(21 * 1024 * 1024), { fileName: "x" })).toThrow(
        /at most 20.0 MiB/,
      );
      await writeFile(path, "Title,Artist\nSong,Band\n");
      const { entries } = await readEntriesFile(path, { strict: true });
      expect(entries).toMatchObject([{ title: "Song", artists: ["Band"], line: 2 }]);
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it.each(["csv", "m3u", "text", "json", "xspf"] as const)(
    "reads 100,000 %s rows, each with its line",
    (format) => {
      const n = 100_000;
      const rows = Array.from({ length: n }, (_, i) => i);
      const text = {
        csv: () =>
          `Track Name,Artist Name(s),Duration (ms)\n${rows.map((i) => `Song ${i},Band,1000`).join("\n")}`,
        m3u: () => `#EXTM3U\n${rows.map((i) => `#EXTINF:1,Band - Song ${i}\nsong.mp3`).join("\n")}`,
        text: () => rows.map((i) => `Band - Song ${i}`).join("\n"),
        json: () => `[\n${rows.map((i) => `{"title": "Song ${i}", "artists": ["Band"]}`).join(",\n")}\n]`,
        xspf: () =>
          `<playlist><trackList>\n${rows.map((i) => `<track><title>Song ${i}</title></track>`).join("\n")}\n</trackList></playlist>`,
      }[format]();
      const { entries, issues } = readEntries(utf8(text), { fileName: `x.${format}` });
      expect(issues).toEqual([]);
      expect(entries).toHaveLength(n);
      const last = entries[n - 1]!;
      expect(last.title).toBe(`Song ${n - 1}`);
      expect(last.line).toBe({ csv: n + 1, m3u: 2 * n, text: n, json: n + 1, xspf: n + 1 }[format]);
    },
  );

  it("reads a row of 10,000 columns, ignoring the unmapped ones", () => {
    const wide = Array.from({ length: 10_000 }, (_, i) => `c${i}`);
    const csv = `Track Name,${wide.join(",")}\nSong,${wide.join(",")}\n`;
    expect(readEntries(utf8(csv), { fileName: "x.csv" }).entries).toMatchObject([{ title: "Song" }]);
  });

  it("refuses megabyte rows one by one and reads the rest", () => {
    const huge = "x".repeat(2_000_000);
    const csv = `Title,Artist\n${huge},a\nfine,b\n"${huge}\n${huge}",c\nalso fine,d\n`;
    const read = readEntries(utf8(csv), { fileName: "x.csv" });
    expect(read.entries.map((e) => [e.title, e.line])).toEqual([
      ["fine", 3],
      ["also fine", 6],
    ]);
    expect(read.issues.map((i) => i.line)).toEqual([2, 4]);
    expect(read.issues[0]!.message).toMatch(/characters long; at most 100000/);
    const text = readEntries(utf8(`${huge}\nok\n`), { fileName: "x.txt" });
    expect([text.entries.length, text.issues[0]?.line]).toEqual([1, 1]);
    const json = readEntries(utf8(JSON.stringify([{ title: "y".repeat(10_000) }])), { fileName: "x.json" });
    expect(json.issues[0]?.message).toMatch(/title is 10000 characters long/);
  });

  it("refuses a DOCTYPE, so no entity bomb expands", () => {
    const bomb = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<playlist><trackList><track><title>&lol2;</title></track></trackList></playlist>`;
    expect(refusal(() => readEntries(utf8(bomb), { fileName: "x.xspf" }))).toMatchObject({
      line: 2,
      message: expect.stringMatching(/DOCTYPE/),
    });
  });

  it("refuses XML nested deeper than the bound without overflowing the stack", () => {
    const deep = `<playlist>${"<a>".repeat(100_000)}${"</a>".repeat(100_000)}</playlist>`;
    expect(() => readEntries(utf8(deep), { fileName: "x.xspf" })).toThrow(/nested more than 64/);
  });
});

describe("strict", () => {
  const csv = "Title,Artist\nok,a\n,b\nalso,c\n,d\n";

  it("lenient: bad rows are issues and skipped", () => {
    const { entries, issues } = readEntries(utf8(csv), { fileName: "x.csv" });
    expect(entries.map((e) => e.title)).toEqual(["ok", "also"]);
    expect(issues.map((i) => i.line)).toEqual([3, 5]);
  });

  it("strict: the first bad row refuses the whole file with its line", () => {
    expect(refusal(() => readEntries(utf8(csv), { fileName: "x.csv", strict: true }))).toMatchObject({
      line: 3,
      message: "no title",
    });
  });
});
