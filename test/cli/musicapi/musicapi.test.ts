import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index.js";
import { musicapi } from "./run-musicapi.js";

/** The README's `musicapi` flows, run as the command against an emulator. */
let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 100, seed: 11 });
  dir = await mkdtemp(join(tmpdir(), "musicapi-flows-"));
});
afterAll(async () => {
  await emu?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("musicapi --version", () => {
  it("prints the package's version", async () => {
    const manifest = JSON.parse(await readFile(new URL("../../../package.json", import.meta.url), "utf8"));
    const run = await musicapi(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(manifest.version);
  });
});

describe("musicapi call --upload-url", () => {
  it("uploads to the emulator's upload host", async () => {
    const headers = await request(`${emu.url}/_emulator/accounts/1/headers`);
    const auth = join(dir, "browser.json");
    await writeFile(auth, JSON.stringify(await headers.body.json()));
    const song = join(dir, "cli-upload.mp3");
    await writeFile(song, Buffer.alloc(2048, 7));
    const args = ["call", "uploadSong", song, "--auth", auth, "--base-url", emu.url];
    const run = await musicapi([...args, "--upload-url", emu.url]);
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toBe("STATUS_SUCCEEDED");
    const tracks = await musicapi(["call", "getLibraryUploadSongs", "--auth", auth, "--base-url", emu.url]);
    expect(JSON.stringify(JSON.parse(tracks.stdout))).toContain("cli-upload");
  });
});

describe("musicapi oauth --base-url", () => {
  it("signs in with the emulator's device flow, and call refreshes the token at --token-url", async () => {
    const token = join(dir, "oauth.json");
    const client = ["--client-id", "cli-client", "--client-secret", "cli-secret"];
    const signIn = await musicapi([
      "oauth",
      ...client,
      "--base-url",
      emu.url,
      "--no-browser",
      "--interval-scale-ms",
      "1",
      "-o",
      token,
    ]);
    expect(signIn.stderr).toBe("");
    expect(signIn.code).toBe(0);
    const saved = JSON.parse(await readFile(token, "utf8")) as { access_token: string };
    await request(`${emu.url}/_emulator/oauth/expire`, { method: "POST", body: "{}" });
    const call = ["call", "getLibraryPlaylists", "--auth", token, "--base-url", emu.url, ...client];
    const run = await musicapi([...call, "--token-url", `${emu.url}/token`]);
    expect(run.stderr).toBe("");
    expect(Array.isArray(JSON.parse(run.stdout))).toBe(true);
    // The refreshed token was written back to the file.
    const after = JSON.parse(await readFile(token, "utf8")) as { access_token: string };
    expect(after.access_token).not.toBe(saved.access_token);
  });
});
