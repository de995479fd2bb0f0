/**
 * The player script and the stream host agree (emulator/README.md "Stream URLs and the player
 * script"): for seeded player versions, videos and formats, the `sig` and `n` a client computes by
 * running the served script's functions are the ones `GET /videoplayback` expects. Two ways of
 * finding the functions are tried, as real clients find them: youtubei.js's extraction (by the
 * stream URL builder's shape) and text matching (by the `c&&(c=` and `.get("n"))&&(b=` calls).
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { Log, Player } from "youtubei.js";
import { ID_ALPHABET, Rng } from "../../emulator/random.js";
import { playerScript } from "../../emulator/render/player-script.js";
import {
  type CipherPlan,
  cipherPlan,
  decipherSignature,
  expectedStreamParams,
  streamSecrets,
  transformN,
} from "../../emulator/stream-cipher.js";
import { provideEvaluator } from "./js-evaluator.js";

Log.setLevel(Log.Level.NONE);
provideEvaluator();

const rng = new Rng(26);
const VERSIONS = Array.from({ length: 4 }, () => rng.chars(8, "0123456789abcdef"));
const videoIds = Array.from({ length: 6 }, () => rng.chars(11));
const ITAGS = [140, 251];

/** youtubei.js's player, built from our script as if it had downloaded it. */
function playerOf(version: string, script: string): Promise<Player> {
  const fetchScript = (async () => new Response(script)) as unknown as typeof fetch;
  return Player.create(undefined, fetchScript, undefined, version);
}

/** A format's `signatureCipher` as the player response writes it. */
function cipherOf(version: string, videoId: string, itag: number): string {
  const { s, n } = streamSecrets(version, videoId, itag);
  const url = `http://127.0.0.1:1/videoplayback?id=${videoId}&itag=${itag}&n=${n}`;
  return new URLSearchParams({ s, sp: "sig", url }).toString();
}

/** The text from `start` up to and including the first `end` after it. */
function cut(script: string, start: string, end: string): string {
  const from = script.indexOf(start);
  expect(from, start).toBeGreaterThanOrEqual(0);
  return script.slice(from, script.indexOf(end, from) + end.length);
}

/**
 * The signature and `n` functions as a text-matching extractor takes them: the names from the calls
 * in the stream URL builder and the URL class, the bodies and the helper object cut out by name.
 */
function byText(script: string): { sig: (s: string) => string; n: (n: string) => string } {
  const sigName = /a\.set\("alr","yes"\);c&&\(c=([\w$]+)\(decodeURIComponent\(c\)\)/.exec(script)?.[1];
  const nName = /\.get\("n"\)\)&&\(b=([\w$]+)\(b\)/.exec(script)?.[1];
  expect(sigName).toBeDefined();
  expect(nName).toBeDefined();
  const sigFn = cut(script, `${sigName}=function(a){`, 'return a.join("")};');
  const helper = /a=a\.split\(""\);([\w$]+)\./.exec(sigFn)?.[1];
  const helperObj = cut(script, `var ${helper}={`, "}};");
  const nFn = cut(script, `${nName}=function(a){`, '.join("")};');
  const code = `${helperObj}\nvar ${sigFn}\nvar ${nFn}\n({ sig: ${sigName}, n: ${nName} })`;
  return runInNewContext(code, {});
}

describe("the player script and the stream host", () => {
  it("draw the same plan from a version every time, and different plans from different versions", () => {
    expect(cipherPlan(VERSIONS[0]!)).toEqual(cipherPlan(VERSIONS[0]!));
    const plans = new Set(VERSIONS.map((v) => JSON.stringify(cipherPlan(v))));
    expect(plans.size).toBe(VERSIONS.length);
  });

  for (const version of VERSIONS) {
    it(`agree on sig and n through youtubei.js's extraction and decipher (player ${version})`, async () => {
      const player = await playerOf(version, playerScript(version, 20000, cipherPlan(version)));
      expect(player.signature_timestamp).toBe(20000);
      for (const videoId of videoIds)
        for (const itag of ITAGS) {
          const url = new URL(await player.decipher(undefined, cipherOf(version, videoId, itag)));
          const expected = expectedStreamParams(version, videoId, itag);
          expect(url.searchParams.get("sig"), `${videoId} ${itag}`).toBe(expected.sig);
          expect(url.searchParams.get("n"), `${videoId} ${itag}`).toBe(expected.n);
        }
    });

    it(`agree on sig and n through text matching (player ${version})`, () => {
      const plan = cipherPlan(version);
      const fns = byText(playerScript(version, 20000, plan));
      for (const videoId of videoIds)
        for (const itag of ITAGS) {
          const { s, n } = streamSecrets(version, videoId, itag);
          expect(fns.sig(s)).toBe(expectedStreamParams(version, videoId, itag).sig);
          expect(fns.n(n)).toBe(expectedStreamParams(version, videoId, itag).n);
        }
    });
  }

  it("transform values: the signature loses what the plan splices, n keeps its length and alphabet", () => {
    const plan: CipherPlan = cipherPlan(VERSIONS[1]!);
    const spliced = plan.sig.reduce((sum, step) => sum + (step.op === "splice" ? step.count : 0), 0);
    for (const videoId of videoIds) {
      const { s, n } = streamSecrets(VERSIONS[1]!, videoId, 140);
      const sig = decipherSignature(plan, s);
      expect(sig.length).toBe(s.length - spliced);
      expect(sig).not.toBe(s.slice(spliced));
      const out = transformN(plan, n);
      expect(out).toHaveLength(n.length);
      expect(out).not.toBe(n);
      for (const c of out) expect(ID_ALPHABET).toContain(c);
    }
  });
});
