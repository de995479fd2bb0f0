/**
 * A person signing in with `musicsync auth spotify` against the emulator's Spotify stand-in, the
 * test playing the browser: it opens the printed address without following redirects, then goes
 * where Spotify sends it, the command's own callback.
 */
import { expect } from "vitest";
import { type InProcResult, musicsyncInProc } from "./musicsync-inproc.js";

export interface StartedSignIn {
  /** The authorize address, once printed; null when the command ended without printing one. */
  authorize: Promise<URL | null>;
  done: Promise<InProcResult>;
}

/** Runs `auth spotify <args>`; `authorize` settles when stdout shows the address to open. */
export function startSignIn(args: string[], env: Record<string, string> = {}): StartedSignIn {
  let seen = "";
  let found: (u: URL | null) => void = () => {};
  const authorize = new Promise<URL | null>((r) => {
    found = r;
  });
  const done = musicsyncInProc(["auth", "spotify", ...args], {
    env,
    watch: (text) => {
      seen += text;
      const m = /^ {2}(http\S+\/authorize\?\S+)$/m.exec(seen);
      if (m) found(new URL(m[1]!));
    },
  });
  void done.then(() => found(null));
  return { authorize, done };
}

/** The browser at Spotify: where the approval sends it (the local callback), not followed. */
export async function atSpotify(authorize: URL): Promise<URL> {
  const res = await fetch(authorize, { redirect: "manual" });
  expect([302, 303]).toContain(res.status);
  return new URL(res.headers.get("location")!);
}

/** The person signs in: the printed address, Spotify's redirect, the callback; the command's result. */
export async function signIn(args: string[], env: Record<string, string> = {}) {
  const run = startSignIn(args, env);
  const authorize = await run.authorize;
  if (authorize === null) return { result: await run.done, callback: null, page: null };
  const callback = await atSpotify(authorize);
  const page = await fetch(callback);
  const result = await run.done;
  return { result, callback, page: { status: page.status, text: await page.text() } };
}
