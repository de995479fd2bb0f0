/**
 * matches.yaml as a hostile or merely large file: a key given twice is named with both
 * lines, and a drafted file for a large library parses in one pass (yaml's own unique-key check
 * compared every key with every one before it: 60,000 lines took 87 s).
 */
import { describe, expect, it } from "vitest";
import {
  draftOverrides,
  OverridesError,
  parseOverrides,
  withChoice,
} from "../../../engine/files/overrides.js";
import { SONGS_SHOWN } from "../../../engine/match/choices.js";
import { entry, searched, song } from "../match/candidates.js";

describe("parseOverrides", () => {
  it("names a key given twice, with the line of each", () => {
    const text = '"a - b": skip\n"c - d": dQw4w9WgXcQ\n"a - b": YQHsXMglC9A\n';
    expect(() => parseOverrides("matches.yaml", text)).toThrow(
      new OverridesError("matches.yaml", 3, 1, '"a - b" is given twice (also on line 1)'),
    );
  });

  it("reads 40,000 drafted lines, each with its comment", () => {
    const n = 40_000;
    const lines = Array.from(
      { length: n },
      (_, i) =>
        `"artist ${i} - song ${i}": dQw4w9WgXcQ  # Artist ${i} - Song ${i}; score 0.93: title, artists`,
    );
    const read = parseOverrides("matches.yaml", `${lines.join("\n")}\n`);
    expect(read.size).toBe(n);
    expect(read.get(`artist ${n - 1} - song ${n - 1}`)).toBe("dQw4w9WgXcQ");
  });
});

const crazy = entry("Crazy", ["Gnarls Barkley"]);
const tie = () =>
  searched(crazy, [
    song("Crazy", ["Gnarls Barkley"], 178, { videoId: "AlbumTake01", album: "St. Elsewhere" }),
    song("Crazy", ["Gnarls Barkley"], 200, { videoId: "SingleEdit1" }),
  ]);

describe("a tie in the draft", () => {
  it("is a choice: one commented line per recording, that loads as drafted and once uncommented", () => {
    const drafted = draftOverrides("# mine\n", [tie()], "2026-12-01", SONGS_SHOWN)!;
    expect(drafted).toBe(
      [
        "# mine",
        "# drafted by `musicsync match --write-overrides` on 2026-12-01: review, then commit",
        "# tie for Gnarls Barkley - Crazy: two candidates equally good; uncomment the one it is (or write skip)",
        '# "gnarls barkley - crazy": AlbumTake01  # 1.00 "Crazy" by Gnarls Barkley, 2:58, St. Elsewhere: title equal, artists overlap 1/1',
        '# "gnarls barkley - crazy": SingleEdit1  # 1.00 "Crazy" by Gnarls Barkley, 3:20: title equal, artists overlap 1/1',
        "",
      ].join("\n"),
    );
    expect(parseOverrides("matches.yaml", drafted).size).toBe(0);
    const taken = drafted.replace(
      '# "gnarls barkley - crazy": SingleEdit1',
      '"gnarls barkley - crazy": SingleEdit1',
    );
    expect([...parseOverrides("matches.yaml", taken)]).toEqual([["gnarls barkley - crazy", "SingleEdit1"]]);
    // Drafted once: a second draft adds nothing.
    expect(draftOverrides(drafted, [tie()], "2026-12-02", SONGS_SHOWN)).toBeNull();
  });

  it("a chosen line is added at the end, dated once per session; never a second line for a decided entry", () => {
    const first = withChoice(
      "m.yaml",
      "# mine\n",
      { resolution: tie(), value: "SingleEdit1" },
      "2026-12-01",
      true,
      SONGS_SHOWN,
    )!;
    expect(first).toBe(
      [
        "# mine",
        "# chosen with `musicsync match --interactive` on 2026-12-01: review, then commit",
        '"gnarls barkley - crazy": SingleEdit1  # Gnarls Barkley - Crazy; 1.00 "Crazy" by Gnarls Barkley, 3:20: title equal, artists overlap 1/1',
        "",
      ].join("\n"),
    );
    expect(
      withChoice("m.yaml", first, { resolution: tie(), value: "skip" }, "2026-12-01", false, SONGS_SHOWN),
    ).toBeNull();
    const other = searched(entry("Hello", ["Adele"]), [
      song("Hello", ["Adele"], 295, { videoId: "HelloHello1" }),
    ]);
    const unsure = { ...other, videoId: null, score: 0.7 };
    const second = withChoice(
      "m.yaml",
      first,
      { resolution: unsure, value: "skip" },
      "2026-12-01",
      false,
      SONGS_SHOWN,
    )!;
    expect(second.startsWith(first)).toBe(true);
    expect(second.slice(first.length)).toBe(
      '"adele - hello": skip  # Adele - Hello; left out: unsure: best 1.00, title equal\n',
    );
    expect([...parseOverrides("m.yaml", second).values()]).toEqual(["SingleEdit1", "skip"]);
  });
});
