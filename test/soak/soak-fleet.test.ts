/**
 * The soak's fleets on PostgreSQL: seed 2 with a light fleet of workers whose account lock is cut
 * mid-run (fleet.ts), and the regressions found with the state there, each with the fleet its seed
 * draws. Apart from soak-postgres.test.ts so that vitest's two workers run them side by side.
 */
import { describe, expect, it } from "vitest";
import { stretched } from "../support/load.js";
import { usePostgres } from "../support/postgres-server.js";
import { REGRESSIONS } from "./regressions.js";
import { drawnFor } from "./replay.js";
import { runSeed } from "./soak.js";
import { attacks, builtCommand, describeViolations } from "./suite.js";

const command = builtCommand();

describe("soak on PostgreSQL: each seed's state in a database of its own", () => {
  const server = usePostgres();

  // A fleet of real workers on the seed's database; a lock cut while one of them is mid-run.
  it(
    "seed 2 with a fleet (two workers, an account lock cut mid-run) keeps every promise",
    async () => {
      const { violations, fleet } = await runSeed(2, {
        kill: false,
        command,
        ...attacks,
        postgres: server(),
        fleet: "light",
      });
      expect(fleet).toBe("fleet 2×1 workers, 1 cut");
      expect(violations, describeViolations(violations)).toEqual([]);
    },
    stretched(240_000),
  );

  // Regressions found on PostgreSQL, replayed as the soak ran them there: with the fleet the seed draws,
  // or the one it was forced to have.
  it.each(
    REGRESSIONS.filter((r) => r.state === "postgres").map((r) => [r.seed, r.promise, r.found, r] as const),
  )(
    "regression seed %i (%s): %s",
    async (seed, _promise, _found, r) => {
      const { violations } = await runSeed(seed, {
        kill: "auto",
        command,
        ...drawnFor(r),
        postgres: server(),
        fleet: r.fleet ?? "auto",
      });
      expect(violations, describeViolations(violations)).toEqual([]);
    },
    stretched(300_000),
  );
});
