/** `musicsync auth …`: signing in to the other music services sources read (loads ../auth-spotify.ts when run). */
import type { AuthSpotifyOptions } from "../auth-spotify.js";
import type { CommandRun, MusicsyncCommand } from "../io.js";

const spotify: MusicsyncCommand = {
  name: "spotify",
  summary: "sign in to Spotify, for `spotify` sources of your library and private playlists",
  description:
    "Sign in to Spotify (authorization code with PKCE), for `spotify` sources that read your liked " +
    "songs, saved albums, followed artists or private playlists. Needs your Spotify app's client id " +
    "(services.spotify.client_id or SPOTIFY_CLIENT_ID). Prints an address to open in a browser; " +
    "Spotify sends the browser back to http://127.0.0.1:<port>/callback, where this command waits. " +
    "Your app's settings at developer.spotify.com must list the redirect URI http://127.0.0.1/callback " +
    "(any port), or, with --port, http://127.0.0.1:<port>/callback. The token is kept in " +
    "services.spotify.token (default spotify-token.json beside the project file, readable by you " +
    "only), or with --store sealed into the state; it is never printed. Without a browser here, forward " +
    "the port over SSH (ssh -L <port>:127.0.0.1:<port>) and use --port. With services.spotify.emulator: " +
    "true it signs in to the embedded emulator's stand-in (no app needed). --sign-out removes the kept " +
    "sign-in (the file and the sealed copy, wherever they are; exit 0 also when there was none). " +
    "See docs/spotify-sign-in.md.",
  options: [
    [
      "--port <port>",
      "listen on this port of 127.0.0.1 (default: a free one); your app's settings must list " +
        "http://127.0.0.1:<port>/callback, or http://127.0.0.1/callback for any port",
    ],
    ["--timeout <seconds>", "how long to wait for the browser to come back (default 300)"],
    [
      "--store",
      "seal the token into the state with the stored accounts (MUSICSYNC_ACCOUNTS_KEY), for workers " +
        "on other machines, instead of the file",
    ],
    [
      "--sign-out",
      "remove the kept sign-in instead: the token file and the copy sealed in the state, whichever " +
        "exist; says what it removed (exit 0, also when nothing was kept)",
    ],
  ],
  action: async (run: CommandRun, o: AuthSpotifyOptions) => {
    await (await import("../auth-spotify.js")).authSpotify(run, o);
  },
};

export const auth: MusicsyncCommand = {
  name: "auth",
  description: "sign in to another music service that sources read (spotify)",
  subcommands: [spotify],
};
