/**
 * The stream URL cipher (emulator/README.md "Stream URLs and the player script"): what the player
 * script's signature and `n` functions do, as data drawn from the player version, and the values a
 * stream URL carries. The script (`render/player-script.ts`) is written from the same plan, so the
 * transforms a client runs from the script and those the server checks cannot drift apart.
 * Pure: no clock, no store.
 */
import { hash32, ID_ALPHABET, Rng } from "./random.js";

/** One step of the signature function, done on the signature's characters in place. */
export type SigStep =
  | { op: "reverse" }
  | { op: "splice"; count: number } // drops the first `count` characters
  | { op: "swap"; index: number }; // swaps the first character with the one at `index % length`

export interface CipherPlan {
  sig: SigStep[];
  /** The `n` function: each character shifted along `ID_ALPHABET` by these amounts in turn, ... */
  shifts: number[];
  /** ... then the first `rotate` characters moved to the end. */
  rotate: number;
}

/** The plan of one player version: the same version always gives the same plan. */
export function cipherPlan(playerVersion: string): CipherPlan {
  const rng = new Rng(hash32(`cipher:${playerVersion}`));
  const sig: SigStep[] = [];
  const steps = rng.int(5, 8);
  for (let i = 0; i < steps; i++) {
    // Never the same kind twice in a row (two reverses would undo each other).
    const kinds = (["reverse", "splice", "swap"] as const).filter((k) => k !== sig.at(-1)?.op);
    const kind = i === 0 ? "splice" : rng.pick(kinds);
    if (kind === "reverse") sig.push({ op: "reverse" });
    else if (kind === "splice") sig.push({ op: "splice", count: rng.int(1, 3) });
    else sig.push({ op: "swap", index: rng.int(1, 70) });
  }
  const shifts = Array.from({ length: rng.int(4, 7) }, () => rng.int(1, ID_ALPHABET.length - 1));
  return { sig, shifts, rotate: rng.int(1, 9) };
}

/** The signature function: what a client computes from `s` and sends as `sig`. */
export function decipherSignature(plan: CipherPlan, s: string): string {
  const a = s.split("");
  for (const step of plan.sig) {
    if (step.op === "reverse") a.reverse();
    else if (step.op === "splice") a.splice(0, step.count);
    else {
      const i = step.index % a.length;
      const first = a[0]!;
      a[0] = a[i]!;
      a[i] = first;
    }
  }
  return a.join("");
}

/** The `n` function: what a client computes from the URL's `n` and sends instead. */
export function transformN(plan: CipherPlan, n: string): string {
  const a = n.split("").map((c, i) => {
    const at = ID_ALPHABET.indexOf(c);
    return at < 0 ? c : ID_ALPHABET[(at + plan.shifts[i % plan.shifts.length]!) % ID_ALPHABET.length]!;
  });
  return a.concat(a.splice(0, plan.rotate)).join("");
}

/** The scrambled signature's alphabet: base64url and the `=` padding the service's `s` values hold. */
const S_ALPHABET = `${ID_ALPHABET}=`;

/**
 * What one stream URL carries before a client deciphers it: `s` (of the format's
 * `signatureCipher`) and `n` (in its `url`). Derived from the video and format alone, so the
 * server recomputes them to check a request and keeps nothing per response.
 */
export function streamSecrets(
  playerVersion: string,
  videoId: string,
  itag: number,
): { s: string; n: string } {
  const s = new Rng(hash32(`s:${playerVersion}:${videoId}:${itag}`)).chars(104, S_ALPHABET);
  // One `n` per response, as in the service's URLs: every format of a video shares it.
  const n = new Rng(hash32(`n:${playerVersion}:${videoId}`)).chars(16);
  return { s, n };
}

/** The `sig` and `n` a deciphered URL of this stream must carry. */
export function expectedStreamParams(
  playerVersion: string,
  videoId: string,
  itag: number,
): { sig: string; n: string } {
  const plan = cipherPlan(playerVersion);
  const { s, n } = streamSecrets(playerVersion, videoId, itag);
  return { sig: decipherSignature(plan, s), n: transformN(plan, n) };
}
