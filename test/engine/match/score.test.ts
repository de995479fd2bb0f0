import { describe, expect, it } from "vitest";
import type { MatchCandidate } from "../../../engine/match/entry.js";
import { ACCEPT_SCORE, decide, mainReason, scoreCandidate } from "../../../engine/match/score.js";
import { entry, song, video } from "./candidates.js";

const brightside = entry("Mr. Brightside", ["The Killers"], 222, { album: "Hot Fuss" });
const original = song("Mr. Brightside", ["The Killers"], 222, { album: "Hot Fuss" });

describe("the original among its versions", () => {
  const variants: [string, MatchCandidate][] = [
    ["live", song("Mr. Brightside (Live from the Royal Albert Hall)", ["The Killers"], 236)],
    ["live, same length", song("Mr. Brightside - Live", ["The Killers"], 223)],
    ["remix", song("Mr. Brightside (Jacques Lu Cont Remix)", ["The Killers"], 224)],
    ["karaoke", song("Mr. Brightside (Karaoke Version)", ["Karaoke Hits Band"], 222)],
    [
      "karaoke, originally performed by",
      song("Mr. Brightside (Originally Performed by The Killers)", ["Sing King"], 221),
    ],
    ["cover", song("Mr. Brightside (Cover)", ["The Killers"], 222)],
    ["tribute", song("Mr. Brightside", ["Vitamin String Quartet Tribute"], 222)],
    ["lullaby", song("Mr. Brightside (Lullaby Version)", ["Rockabye Baby!"], 222)],
    ["sped up", song("Mr. Brightside (Sped Up)", ["The Killers"], 185)],
    ["slowed + reverb", song("Mr. Brightside - Slowed + Reverb", ["The Killers"], 222)],
    ["acoustic", song("Mr. Brightside (Acoustic)", ["The Killers"], 222)],
    ["instrumental", song("Mr. Brightside (Instrumental)", ["The Killers"], 222)],
    ["demo", song("Mr. Brightside (Demo)", ["The Killers"], 222)],
    ["radio edit", song("Mr. Brightside - Radio Edit", ["The Killers"], 222)],
    ["8-bit", song("Mr. Brightside (8-Bit Version)", ["8-Bit Arcade"], 222)],
  ];

  it.each(variants)("a %s version loses to the original and is never accepted alone", (_, variant) => {
    const both = decide(brightside, [variant, original]);
    expect(both.accepted?.candidate).toBe(original);
    const alone = decide(brightside, [variant]);
    expect(alone.accepted).toBeNull();
    expect(alone.best!.score).toBeLessThan(ACCEPT_SCORE);
  });

  it("names the version in the reason against", () => {
    const live = scoreCandidate(brightside, song("Mr. Brightside - Live", ["The Killers"], 223));
    expect(mainReason(live)).toBe("version differs: live vs none");
  });

  it("takes a remaster when the catalogue holds nothing else, and prefers the plain release", () => {
    const remaster = song("Mr. Brightside - Remastered 2014", ["The Killers"], 222);
    const alone = decide(brightside, [remaster]);
    expect(alone.accepted?.candidate).toBe(remaster);
    expect(alone.accepted!.reasons).toContain("version differs slightly: remaster vs none");
    expect(decide(brightside, [remaster, original]).accepted?.candidate).toBe(original);
  });

  it("wants the marked version when the entry names one", () => {
    const levels = song("Levels", ["Avicii"], 338);
    const radio = song("Levels - Radio Edit", ["Avicii"], 199);
    expect(decide(entry("Levels - Radio Edit", ["Avicii"], 199), [levels, radio]).accepted?.candidate).toBe(
      radio,
    );
    expect(decide(entry("Levels", ["Avicii"], 338), [radio, levels]).accepted?.candidate).toBe(levels);
    const live = song("Hello (Live at the NRJ Awards)", ["Adele"], 301);
    const decision = decide(entry("Hello - Live", ["Adele"], 300), [song("Hello", ["Adele"], 295), live]);
    expect(decision.accepted?.candidate).toBe(live);
    expect(decision.accepted!.reasons).toContain("version agrees: live");
  });
});

describe("karaoke uploads", () => {
  const hello = entry("Hello", ["Adele"], 295);
  const karaoke: MatchCandidate[] = [
    song("Hello (Karaoke Version)", ["Karaoke Hits Band"], 295),
    song("Hello (Originally Performed by Adele) [Karaoke Version]", ["Sing King"], 296),
    song("Hello (In the Style of Adele)", ["Ameritz Karaoke"], 294),
    song("Hello (Karaoke Version)", ["Sing King", "Adele"], 295),
    video("Adele - Hello (Karaoke Version)", ["Sing King Karaoke"], 297),
  ];

  it.each(karaoke.map((c) => [c.title, c.artists.join(", "), c] as const))(
    "%s by %s is never accepted for a plain entry",
    (_, __, candidate) => {
      expect(decide(hello, [candidate]).accepted).toBeNull();
    },
  );

  it("says the artist differs when the uploader is not the artist", () => {
    const scored = scoreCandidate(hello, karaoke[0]!);
    expect(scored.reasons).toContain("artist differs: Karaoke Hits Band");
    expect(scored.reasons).toContain("version differs: karaoke vs none");
  });
});

describe("artists in any form", () => {
  it.each([
    [
      "feat. in the title, listed apart",
      "Get Lucky (feat. Pharrell Williams & Nile Rodgers)",
      ["Daft Punk"],
      "Get Lucky",
      ["Daft Punk", "Pharrell Williams", "Nile Rodgers"],
      "3/3",
    ],
    [
      "feat. in the title on both sides",
      "Get Lucky (feat. Pharrell Williams)",
      ["Daft Punk"],
      "Get Lucky (feat. Pharrell Williams)",
      ["Daft Punk"],
      "2/2",
    ],
    [
      "feat. in the artist, in the title",
      "Get Lucky",
      ["Daft Punk feat. Pharrell Williams"],
      "Get Lucky [ft. Pharrell Williams]",
      ["Daft Punk"],
      "2/2",
    ],
    ["& against and", "The Boxer", ["Simon & Garfunkel"], "The Boxer", ["Simon and Garfunkel"], "2/2"],
    [
      "one name with a comma against two",
      "One Kiss",
      ["Calvin Harris, Dua Lipa"],
      "One Kiss",
      ["Calvin Harris", "Dua Lipa"],
      "2/2",
    ],
    [
      "+ against and, with The",
      "Dog Days Are Over",
      ["Florence + The Machine"],
      "Dog Days Are Over",
      ["Florence and the Machine"],
      "2/2",
    ],
    [
      "x and a topic channel",
      "Señorita",
      ["Shawn Mendes x Camila Cabello"],
      "Señorita",
      ["Shawn Mendes - Topic", "Camila Cabello"],
      "2/2",
    ],
    [
      "(with …) in the title",
      "Under Pressure",
      ["Queen", "David Bowie"],
      "Under Pressure (with David Bowie)",
      ["Queen"],
      "2/2",
    ],
  ])("%s", (_, title, artists, theirTitle, theirArtists, overlap) => {
    const candidate = song(theirTitle, theirArtists, 248);
    const decision = decide(entry(title, artists, 248), [candidate]);
    expect(decision.accepted?.candidate).toBe(candidate);
    expect(decision.accepted!.reasons).toContain(`artists overlap ${overlap}`);
    expect(decision.accepted!.reasons).toContain("title equal");
  });

  it("matches across accents and case", () => {
    const pairs: [string, string, string, string][] = [
      ["Déjà Vu", "Beyoncé", "DEJA VU", "Beyonce"],
      ["Hoppípolla", "Sigur Rós", "Hoppipolla", "Sigur Ros"],
      ["Kickstart My Heart", "Mötley Crüe", "Kickstart my heart", "Motley Crue"],
      ["Malamente", "Rosalía", "MALAMENTE", "Rosalia"],
    ];
    for (const [title, artist, theirTitle, theirArtist] of pairs) {
      const decision = decide(entry(title, [artist], 200), [song(theirTitle, [theirArtist], 201)]);
      expect(decision.accepted?.reasons.slice(0, 1), title).toEqual(["title equal"]);
    }
  });

  it("refuses the same title by another artist", () => {
    const hallelujah = entry("Hallelujah", ["Leonard Cohen"], 278);
    const decision = decide(hallelujah, [
      song("Hallelujah", ["Jeff Buckley"], 413),
      song("Hallelujah", ["Pentatonix"], 276),
    ]);
    expect(decision.accepted).toBeNull();
    expect(mainReason(decision.ranked.find((r) => r.candidate.artists[0] === "Pentatonix")!)).toBe(
      "artist differs: Pentatonix",
    );
  });
});

describe("durations", () => {
  it.each([0, 1, 2, 3])("accepts a candidate %i s off", (off) => {
    const decision = decide(brightside, [song("Mr. Brightside", ["The Killers"], 222 + off)]);
    expect(decision.accepted).not.toBeNull();
    expect(decision.accepted!.reasons).toContain(off === 0 ? "duration equal" : `duration within ${off} s`);
  });

  it("refuses a candidate 41 s off and says so", () => {
    const decision = decide(brightside, [song("Mr. Brightside", ["The Killers"], 263)]);
    expect(decision.accepted).toBeNull();
    expect(mainReason(decision.best!)).toBe("duration differs by 41 s");
  });

  it("accepts exact title and artist when the entry has no duration and no album", () => {
    const decision = decide(entry("Mr. Brightside", ["The Killers"]), [original]);
    expect(decision.accepted?.candidate).toBe(original);
    expect(mainReason(decision.accepted!)).toBe("title equal");
  });

  it("does not accept a title alone", () => {
    const decision = decide(entry("Mr. Brightside", []), [original]);
    expect(decision.accepted).toBeNull();
    expect(mainReason(decision.best!)).toBe("only the title to compare");
  });
});

describe("videos", () => {
  const hello = entry("Hello", ["Adele"], 295);

  it("matches 'Artist - Title (Official Video)' from the artist's channel", () => {
    for (const title of [
      "Adele - Hello (Official Music Video)",
      "Adele - Hello [HD]",
      "Hello - Adele (Lyrics)",
    ]) {
      const decision = decide(hello, [video(title, ["AdeleVEVO"], 296)]);
      expect(decision.accepted, title).not.toBeNull();
      expect(decision.accepted!.reasons).toEqual(
        expect.arrayContaining(["title equal", "artists overlap 1/1", "a video, not a song"]),
      );
    }
  });

  it("matches a video uploaded by someone else when its title names the artist", () => {
    expect(
      decide(hello, [video("Adele - Hello (Official Audio)", ["Music Uploads"], 295)]).accepted,
    ).not.toBeNull();
  });

  it("prefers the song over its video when both agree", () => {
    const theSong = song("Hello", ["Adele"], 295);
    const decision = decide(hello, [video("Adele - Hello (Official Video)", ["Adele"], 295), theSong]);
    expect(decision.accepted?.candidate).toBe(theSong);
    expect(decision.ranked[1]!.score).toBeLessThan(decision.ranked[0]!.score);
  });
});

describe("other scripts", () => {
  const yoasobi = entry("Yoru ni Kakeru", ["YOASOBI"], 261);

  it.each(["よるにかける", "ヨルニカケル", "夜に駆ける (Yoru ni Kakeru)"])("reads %s", (title) => {
    const decision = decide(yoasobi, [song(title, ["YOASOBI"], 261)]);
    expect(decision.accepted?.reasons).toContain("title equal");
  });

  it("lets the artist and the duration carry a kanji title, but not the artist alone", () => {
    const kanji = song("夜に駆ける", ["YOASOBI"], 261);
    expect(decide(yoasobi, [kanji]).accepted?.reasons).toContain("title in another script, not compared");
    expect(decide(yoasobi, [song("夜に駆ける", ["YOASOBI"], 300)]).accepted).toBeNull();
    expect(decide(entry("Yoru ni Kakeru", ["YOASOBI"]), [kanji]).accepted).toBeNull();
  });

  it("matches Cyrillic titles and artists", () => {
    const candidate = song("Звезда по имени Солнце", ["Кино"], 225);
    const decision = decide(entry("Zvezda po imeni Solntse", ["Kino"], 226), [candidate]);
    expect(decision.accepted?.candidate).toBe(candidate);
    expect(decision.accepted!.reasons).toEqual(
      expect.arrayContaining(["title equal", "artists overlap 1/1"]),
    );
  });

  it("matches Arabic script by its consonants", () => {
    const candidate = song("نور العين", ["عمرو دياب"], 290);
    const decision = decide(entry("Nour El Ain", ["Amr Diab"], 290), [candidate]);
    expect(decision.accepted?.candidate).toBe(candidate);
    expect(decide(entry("Tamally Maak", ["Amr Diab"], 290), [candidate]).accepted).toBeNull();
  });
});

describe("refusals", () => {
  it("refuses an entry the catalogue lacks, offered only rain sounds", () => {
    const decision = decide(entry("Nocturne in the Attic", ["The Unlisted Quartet"], 271), [
      song("Rain Sounds for Sleeping", ["Nature Sounds"], 3600),
      video("Heavy Rain Sounds 10 Hours - Relaxing Sleep Sounds", ["Relaxing White Noise"], 36000),
      song("Attic Rain", ["Sleep Sounds"], 271),
    ]);
    expect(decision.accepted).toBeNull();
    expect(decision.best!.score).toBeLessThan(0.5);
  });

  it("refuses two different recordings that fit equally well", () => {
    const album = song("Crazy", ["Gnarls Barkley"], 178);
    const single = song("Crazy", ["Gnarls Barkley"], 200);
    const decision = decide(entry("Crazy", ["Gnarls Barkley"]), [album, single]);
    expect(decision.accepted).toBeNull();
    expect(decision.best!.score).toBeGreaterThanOrEqual(ACCEPT_SCORE);
    expect(mainReason(decision.best!)).toBe(
      `two candidates equally good: Crazy by Gnarls Barkley (${album.videoId}) and Crazy by Gnarls Barkley (${single.videoId})`,
    );
  });

  it("lists every recording that tied, best first, a song and its own video as one choice", () => {
    const album = song("Crazy", ["Gnarls Barkley"], 178);
    const single = song("Crazy", ["Gnarls Barkley"], 200);
    const albumVideo = video("Crazy", ["Gnarls Barkley"], 178);
    const edit = song("Crazy", ["Gnarls Barkley"], 240);
    const decision = decide(entry("Crazy", ["Gnarls Barkley"]), [album, albumVideo, single, edit]);
    expect(decision.accepted).toBeNull();
    expect(decision.tied.map((t) => t.candidate)).toEqual([album, single, edit]);
    // Each with its own reasons: the tie is said once, in front of the best's.
    expect(decision.tied.map((t) => t.reasons[0])).toEqual(["title equal", "title equal", "title equal"]);
    expect(mainReason(decision.best!)).toBe(
      `three candidates equally good: Crazy by Gnarls Barkley (${album.videoId}), Crazy by Gnarls Barkley (${single.videoId}) and Crazy by Gnarls Barkley (${edit.videoId})`,
    );
    expect(decide(brightside, [original]).tied).toEqual([]);
  });

  it("refuses two kanji titles by the artist at the same length", () => {
    const decision = decide(entry("Yoru ni Kakeru", ["YOASOBI"], 261), [
      song("夜に駆ける", ["YOASOBI"], 261),
      song("群青", ["YOASOBI"], 261),
    ]);
    expect(decision.accepted).toBeNull();
    expect(mainReason(decision.best!)).toMatch(/^two candidates equally good/);
  });

  it("is not ambiguous between a song and its remaster", () => {
    const decision = decide(entry("Let It Be", ["The Beatles"]), [
      song("Let It Be - Remastered 2009", ["The Beatles"], 243),
      song("Let It Be", ["The Beatles"], 243),
    ]);
    expect(decision.accepted?.candidate.title).toBe("Let It Be");
  });

  it("ranks all candidates best first and refuses none offered", () => {
    expect(decide(brightside, [])).toEqual({ accepted: null, best: null, ranked: [], tied: [] });
    const ranked = decide(brightside, [song("Mr. Brightside (Live)", ["The Killers"], 222), original]).ranked;
    expect(ranked.map((r) => r.candidate)).toEqual([
      original,
      expect.objectContaining({ title: "Mr. Brightside (Live)" }),
    ]);
  });

  it("weighs an album and an explicit flag that disagree only a little", () => {
    const clean = song("Mr. Brightside", ["The Killers"], 222, { album: "Direct Hits", explicit: false });
    const scored = scoreCandidate({ ...brightside, explicit: true }, clean);
    expect(scored.score).toBeGreaterThanOrEqual(ACCEPT_SCORE);
    expect(scored.reasons).toEqual(
      expect.arrayContaining(["album differs", "explicit differs: clean vs explicit"]),
    );
    expect(scored.score).toBeLessThan(scoreCandidate(brightside, original).score);
  });
});
