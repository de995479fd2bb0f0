/**
 * The status page against a state made by real syncs on the emulator: a host over the harness's
 * project (recipes from `<dir>/recipes`, read again on each call), the server on 127.0.0.1 port 0,
 * and fetch helpers that follow a confirmation page's form the way a browser would.
 */
import { join } from "node:path";
import { loadRecipePaths } from "../../engine/recipe/load.js";
import type { LoadedRecipe, Project } from "../../engine/recipe/types.js";
import type { EngineEnv } from "../../engine/run/runner.js";
import type { WebHost } from "../../engine/web/host.js";
import { type RunningWeb, startWeb } from "../../engine/web/server.js";

export interface WebUnderTest {
  web: RunningWeb;
  host: WebHost;
  reload(): Promise<void>;
  get(path: string, init?: RequestInit): Promise<{ status: number; text: string; headers: Headers }>;
  /** Opens the action's confirmation page and posts its form (with the CSRF token it holds). */
  act(kind: string, target: string | number): Promise<{ status: number; text: string; headers: Headers }>;
}

export async function startWebOn(
  dir: string,
  project: Project,
  projectFile: string,
  env: EngineEnv,
  o: { token?: string; address?: string; actionsPerMinute?: number; recipes?: string } = {},
): Promise<WebUnderTest> {
  let recipes: LoadedRecipe[] = [];
  const reload = async () => {
    recipes = (await loadRecipePaths([o.recipes ?? join(dir, "recipes")], { project })).recipes;
  };
  await reload();
  const host: WebHost = {
    project,
    projectFile,
    env,
    recipes: () => recipes,
    schedulesLoaded: () => true,
    daemon: false,
  };
  const web = await startWeb(host, {
    address: o.address ?? "127.0.0.1:0",
    token: o.token ?? null,
    ...(o.actionsPerMinute ? { actionsPerMinute: o.actionsPerMinute } : {}),
  });
  const get = async (path: string, init: RequestInit = {}) => {
    const r = await fetch(`${web.url}${path}`, { redirect: "manual", ...init });
    return { status: r.status, text: await r.text(), headers: r.headers };
  };
  return {
    web,
    host,
    reload,
    get,
    async act(kind, target) {
      const path = `/actions/${kind}/${target}`;
      const page = await get(path);
      if (page.status !== 200) return page;
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
      return get(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf }).toString(),
      });
    },
  };
}
