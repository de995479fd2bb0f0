/**
 * The fakes answer in the shapes the services document: every field path of each example in
 * test/fixtures/services/ (written from the services' published descriptions, see the READMEs
 * there) is in the fake's answer to the same request.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index.js";
import { lastfmKey } from "../../../emulator/services/lastfm/index.js";
import { listenbrainzUsers } from "../../../emulator/services/listenbrainz/index.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 200, seed: 3 });
});
afterAll(async () => {
  await emu?.stop();
});

const fixture = (path: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../fixtures/services/${path}`, import.meta.url), "utf8"));

/** Every path to a value: object keys by name, array elements as `[]`. */
function paths(v: unknown, at = "", out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) for (const x of v) paths(x, `${at}[]`, out);
  else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      out.add(`${at}.${k}`);
      paths(x, `${at}.${k}`, out);
    }
  }
  return out;
}

const missing = (example: unknown, answer: unknown) => {
  const have = paths(answer);
  return [...paths(example)].filter((p) => !have.has(p));
};

async function json(path: string): Promise<unknown> {
  const r = await fetch(`${emu.url}${path}`);
  return r.json();
}

describe("the fakes' answers hold every field of the documented examples", () => {
  it("ListenBrainz: createdfor, a playlist, top recordings, an error", async () => {
    const listing = (await json("/listenbrainz/1/user/listener/playlists/createdfor?count=100")) as {
      playlists: { playlist: { identifier: string; title: string } }[];
    };
    expect(missing(fixture("listenbrainz/createdfor.json"), listing)).toEqual([]);
    const id = listing.playlists
      .find((p) => p.playlist.title.startsWith("Weekly Exploration"))!
      .playlist.identifier.split("/")
      .pop();
    expect(
      missing(fixture("listenbrainz/playlist.json"), await json(`/listenbrainz/1/playlist/${id}`)),
    ).toEqual([]);
    const stats = await json("/listenbrainz/1/stats/user/listener/recordings?range=all_time&count=1000");
    expect(missing(fixture("listenbrainz/stats-recordings.json"), stats)).toEqual([]);
    expect(
      missing(fixture("listenbrainz/error.json"), await json("/listenbrainz/1/user/nobody/playlists")),
    ).toEqual([]);
    expect(listenbrainzUsers(emu.state).length).toBeGreaterThan(0);
  });

  it("Last.fm: loved, top and recent tracks, errors", async () => {
    const q = (method: string, extra = "") =>
      `/lastfm/2.0/?method=${method}&user=scrobbler&api_key=${lastfmKey(emu.state)}&format=json${extra}`;
    expect(missing(fixture("lastfm/user.getlovedtracks.json"), await json(q("user.getlovedtracks")))).toEqual(
      [],
    );
    expect(
      missing(
        fixture("lastfm/user.getlovedtracks-one.json"),
        await json(q("user.getlovedtracks", "&limit=1")),
      ),
    ).toEqual([]);
    expect(missing(fixture("lastfm/user.gettoptracks.json"), await json(q("user.gettoptracks")))).toEqual([]);
    expect(
      missing(fixture("lastfm/user.getrecenttracks.json"), await json(q("user.getrecenttracks"))),
    ).toEqual([]);
    expect(
      missing(
        fixture("lastfm/error-user-not-found.json"),
        await json(q("user.getlovedtracks").replace("scrobbler", "ghost")),
      ),
    ).toEqual([]);
  });
});
