/** `musicsync drift`: what changed on the service outside the engine since each recipe's last apply. */
import { createEnv } from "../../engine/run/env.js";
import { withPartRecipes } from "../../engine/run/split.js";
import { type DriftReport, detectDrift, renderDriftText } from "../../engine/status/drift.js";
import { loadProjectFor } from "./accounts.js";
import { type CommandRun, Exit } from "./io.js";
import { commandLogger } from "./log.js";
import { loadTolerant, pick, readableState, stateFileOf } from "./project.js";
import { print, titled, titleOf } from "./titles.js";

export async function drift(run: CommandRun, ids: string[] | undefined): Promise<void> {
  const { io, g } = run;
  const project = await loadProjectFor(run);
  const recipes = pick(await loadTolerant(run, project), ids);
  const file = stateFileOf(g, project);
  const env = createEnv({
    project,
    projectFile: g.project,
    logger: commandLogger(io, g),
    stateFile: readableState(file),
  });
  try {
    const reports: DriftReport[] = [];
    for (const r of await withPartRecipes(env.state, recipes))
      reports.push(await detectDrift(r, env.state, env.clientFor(r.recipe.account)));
    const name = titled(recipes);
    const title = (id: string) => titleOf(recipes.find((r) => r.recipe.id === id));
    print(run, { recipes: reports.map((r) => ({ ...r, title: title(r.recipe) })) }, () =>
      renderDriftText(reports.map((r) => ({ ...r, recipe: name(r.recipe) }))),
    );
    run.setExit(reports.some((r) => r.drifted) ? Exit.CHANGES : Exit.OK);
  } finally {
    await env.close();
  }
}
