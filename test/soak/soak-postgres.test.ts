/**
 * The soak with the engine's state on PostgreSQL: seeds 1 and 3 (the latter loses its state) and
 * undo seed 1; seed 2 with a fleet of workers and the regressions found there are in
 * soak-fleet.test.ts. `npm run soak -- --state postgres` runs more.
 */
import { describe, expect, it } from "vitest";
import { stretched } from "../support/load.js";
import { type PostgresServer, usePostgres } from "../support/postgres-server.js";
import { runSeed } from "./soak.js";
import { stateRuns } from "./state.js";
import { attacks, builtCommand, describeViolations } from "./suite.js";
import { runUndoSeed } from "./undo.js";

const command = builtCommand();

// The same promises with the engine's state on PostgreSQL, a fresh database per seed.
describe("soak on PostgreSQL: each seed's state in a database of its own", () => {
  const server = usePostgres();
  /** The server, noting the databases made on it, to look into the seed's afterwards. */
  const noting = (made: string[]): PostgresServer => ({
    ...server(),
    createDatabase: async (prefix) => {
      const url = await server().createDatabase(prefix);
      made.push(url);
      return url;
    },
  });
  /** The seed's runs were recorded in its database (not in a state.db beside the project). */
  const expectRunsIn = async (made: string[]) => {
    expect(made).toHaveLength(1);
    expect((await stateRuns({ setting: made[0]!, server: server() })).length).toBeGreaterThan(0);
  };

  it.each([1, 3])(
    "seed %i keeps every promise",
    async (seed) => {
      const made: string[] = [];
      const { violations } = await runSeed(seed, {
        kill: false,
        command,
        ...attacks,
        postgres: noting(made),
        fleet: "none",
      });
      expect(violations, describeViolations(violations)).toEqual([]);
      await expectRunsIn(made);
    },
    stretched(60_000),
  );

  it(
    "undo seed 1 keeps every promise",
    async () => {
      const made: string[] = [];
      const { violations } = await runUndoSeed(1, { postgres: noting(made) });
      expect(violations, describeViolations(violations)).toEqual([]);
      await expectRunsIn(made);
    },
    stretched(60_000),
  );
});
