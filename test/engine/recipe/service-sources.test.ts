/**
 * The other services' sources and settings as the loader makes them: what people paste (a link,
 * an upper-case MBID) becomes the id the readers ask for, and the defaults are filled in.
 */
import { describe, expect, it } from "vitest";
import { loadProjectText, loadRecipeText } from "../../../engine/recipe/load.js";

const recipe = (sources: string) => `apiVersion: musicsync/v1
kind: Recipe
id: mirror
sources:
${sources}
target:
  type: playlist
  playlist: { title: Mirror }
`;

describe("service sources", () => {
  it("reads a Spotify link, an upper-case MBID and Last.fm's default period", () => {
    const r = loadRecipeText(
      "/project/recipes/mirror.yaml",
      recipe(`  - { id: a, type: spotify, playlist: "https://open.spotify.com/playlist/3cEYpjA9oz9GiPac4AsH4n?si=abc" }
  - { id: b, type: listenbrainz, playlist: 3A3E44D4-4F4B-4B69-9D42-1C9F0E1B2C3D }
  - { id: c, type: lastfm, user: rj, list: top }
  - { id: d, type: listenbrainz, user: rob, series: weekly-exploration, archived: true }
  - { id: e, type: spotify, library: liked }
pipeline:
  - combine: { op: concat, sources: [a, b, c, d, e] }`),
    );
    expect(r.issues).toEqual([]);
    const [a, b, c, d, e] = r.recipes[0]!.recipe.sources;
    expect(a).toMatchObject({ type: "spotify", playlist: "3cEYpjA9oz9GiPac4AsH4n", library: null });
    expect(b).toMatchObject({
      type: "listenbrainz",
      playlist: "3a3e44d4-4f4b-4b69-9d42-1c9f0e1b2c3d",
      user: null,
    });
    expect(c).toMatchObject({ type: "lastfm", user: "rj", list: "top", period: "overall" });
    expect(d).toMatchObject({ series: "weekly-exploration", archived: true, top: null, title: null });
    expect(e).toMatchObject({ playlist: null, library: "liked" });
  });

  it("keeps the corrections beside the recipe file, as a file source's", () => {
    const r = loadRecipeText(
      "/project/recipes/mirror.yaml",
      recipe("  - { id: a, type: lastfm, user: rj, list: loved }"),
    );
    expect(r.recipes[0]!.recipe.sources[0]).toMatchObject({ overrides: "/project/recipes/matches.yaml" });
  });
});

describe("what a Spotify library gives, and which targets take it", () => {
  const library = (kind: string, target: string, pipeline = "") => `apiVersion: musicsync/v1
kind: Recipe
id: from-spotify
sources:
  - { id: mine, type: spotify, library: ${kind} }
target: ${target}
${pipeline}`;
  const warnings = (text: string) => loadRecipeText("/project/recipes/r.yaml", text).warnings;

  it("saved albums go into the library's albums and followed artists into subscriptions", () => {
    expect(warnings(library("albums", "{ type: library, kind: albums }"))).toEqual([]);
    expect(warnings(library("artists", "{ type: subscriptions }"))).toEqual([]);
    expect(warnings(library("liked", "{ type: playlist, playlist: { title: Liked } }"))).toEqual([]);
  });

  it("says where a misfit is: saved albums into a playlist, liked songs into subscriptions", () => {
    const [albums] = warnings(library("albums", "{ type: playlist, playlist: { title: Albums } }"));
    expect(albums).toMatchObject({
      file: "/project/recipes/r.yaml",
      line: 5,
      col: 5,
      message: expect.stringMatching(/source "mine" gives albums, which cannot go in playlist/),
    });
    const [liked] = warnings(library("liked", "{ type: subscriptions }"));
    expect(liked?.message).toMatch(
      /gives tracks, which cannot go in subscriptions \(add the pipeline step "expand: artists"\)/,
    );
    // As for any source, expand turns them.
    expect(
      warnings(library("liked", "{ type: subscriptions }", "pipeline: [{ expand: artists }]\n")),
    ).toEqual([]);
  });
});

describe("services settings", () => {
  const project = (services: string) => `apiVersion: musicsync/v1
kind: Project
services:
${services}
`;

  it("takes each service's settings, a secret from the environment", () => {
    const r = loadProjectText(
      "musicsync.yaml",
      project(`  spotify:
    client_id: abc
    client_secret: \${SPOTIFY_SECRET}
  lastfm:
    api_key: \${LASTFM_KEY}
    base_url: "http://127.0.0.1:9/2.0/"
  listenbrainz: { emulator: true }`),
      { SPOTIFY_SECRET: "s3cret", LASTFM_KEY: "k3y" },
    );
    expect(r.issues).toEqual([]);
    expect(r.project?.services).toEqual({
      spotify: { client_id: "abc", client_secret: "s3cret" },
      lastfm: { api_key: "k3y", base_url: "http://127.0.0.1:9/2.0/" },
      listenbrainz: { emulator: true },
    });
  });

  it("leaves a key whose variable is not set here to the command that reads the service", () => {
    const r = loadProjectText("musicsync.yaml", project(`  lastfm:\n    api_key: \${LASTFM_KEY}`), {});
    expect(r.issues).toEqual([]);
    expect(r.project?.unresolved).toEqual([
      expect.objectContaining({
        path: ["services", "lastfm", "api_key"],
        variables: ["LASTFM_KEY"],
        line: 5,
      }),
    ]);
  });

  it("refuses a service it does not know and an address that is not one", () => {
    const r = loadProjectText(
      "musicsync.yaml",
      project("  deezer: {}\n  lastfm: { base_url: ws.audioscrobbler.com }"),
    );
    expect(r.issues.map((i) => `${i.line}:${i.col} ${i.message}`)).toEqual([
      expect.stringMatching(/^4:3 services.deezer: unknown property "deezer"/),
      "5:23 services.lastfm.base_url: must start with http:// or https://",
    ]);
  });
});
