/**
 * What `musicsync match` prints is text from a file and from the service: a title or an artist
 * holding an escape sequence or a line break is shown written out, on its line, never run by the
 * terminal or made into a line of its own.
 */
import { describe, expect, it } from "vitest";
import { renderMatches } from "../../../cli/musicsync/match-render.js";
import { SONGS_SHOWN } from "../../../engine/match/choices.js";
import { entry, searched as resolution, song } from "./candidates.js";

describe("renderMatches", () => {
  it("writes out escape sequences and line breaks of entries, titles and artists", () => {
    const clear = "\u001b[2J";
    const shown = renderMatches(
      {
        shown: SONGS_SHOWN,
        searches: 2,
        resolutions: [
          resolution(entry(`Crazy${clear}`, ["Gnarls\nBarkley"]), [
            song(`Crazy${clear}`, ["Gnarls\nBarkley"], 178, { videoId: "AlbumTake01" }),
            song(`Crazy${clear}`, ["Gnarls\nBarkley"], 200, { videoId: "SingleEdit1" }),
          ]),
          resolution(entry("Hello", ["Adele"]), [
            song("Hello", [`Someone${clear}`], 295, { videoId: "HelloHello1" }),
          ]),
        ],
      },
      "list.csv",
    );
    expect(shown).not.toContain("\u001b");
    expect(shown).toContain("Crazy\\u001b[2J");
    const lines = shown.split("\n");
    // Entry, why, two candidates; entry, why; the summary and the tie's hint; the last newline.
    expect(lines).toHaveLength(9);
    expect(lines[0]).toBe("   1  Gnarls Barkley - Crazy\\u001b[2J");
    expect(lines[4]).toBe("   2  Adele - Hello");
    expect(lines[5]).toContain("artist differs: Someone\\u001b[2J");
  });
});
