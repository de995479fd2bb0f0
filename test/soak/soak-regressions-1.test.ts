/** Half the soak's regression seeds (replay.ts deals them out; the other half in soak-regressions-2.test.ts). */
import { describe, it } from "vitest";
import { stretched } from "../support/load.js";
import { regressionsShare, replay } from "./replay.js";
import { builtCommand } from "./suite.js";

const command = builtCommand();

describe("soak regressions: every seed that ever broke a promise", () => {
  it.each(regressionsShare(0, 2))("seed %i (%s): %s", (seed) => replay(seed, command), stretched(90_000));
});
