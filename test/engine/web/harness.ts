/**
 * The status page against a state made by real syncs on the emulator: a host over the harness's
 * project (recipes from `<dir>/recipes`, read again on each call), the server on 127.0.0.1 port 0,
 * fetch helpers that follow a confirmation page's form the way a browser would, and a raw request
 * that sends any Host header (fetch writes its own).
 */
import { type IncomingHttpHeaders, request } from "node:http";
import { join } from "node:path";
import { loadRecipePaths } from "../../../engine/recipe/load.js";
import type { LoadedRecipe, Project } from "../../../engine/recipe/types.js";
import type { EngineEnv } from "../../../engine/run/runner.js";
import type { WebHost } from "../../../engine/web/host.js";
import { type RunningWeb, startWeb, type WebOptions } from "../../../engine/web/server.js";

export interface WebUnderTest {
  web: RunningWeb;
  host: WebHost;
  reload(): Promise<void>;
  get(path: string, init?: RequestInit): Promise<{ status: number; text: string; headers: Headers }>;
  /** A request with exactly these headers (a Host of its own, say), over node:http. */
  raw(path: string, o?: RawRequest): Promise<{ status: number; text: string; headers: IncomingHttpHeaders }>;
  /** Opens the action's confirmation page and posts its form (with the CSRF token it holds). */
  act(kind: string, target: string | number): Promise<{ status: number; text: string; headers: Headers }>;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The client's own address (any of 127.0.0.0/8): another client, as the server sees it. */
  localAddress?: string;
}

function rawRequest(base: string, path: string, o: RawRequest = {}) {
  return new Promise<{ status: number; text: string; headers: IncomingHttpHeaders }>((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method: o.method ?? "GET",
        headers: o.headers ?? {},
        ...(o.localAddress ? { localAddress: o.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
            headers: res.headers,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer to ${path}`)));
    req.end(o.body);
  });
}

export async function startWebOn(
  dir: string,
  project: Project,
  projectFile: string,
  env: EngineEnv,
  o: Partial<Pick<WebOptions, "token" | "address" | "actionsPerMinute" | "hosts" | "machineAddresses">> & {
    recipes?: string;
  } = {},
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
  const { recipes: _, ...options } = o;
  const web = await startWeb(host, {
    ...options,
    address: o.address ?? "127.0.0.1:0",
    token: o.token ?? null,
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
    raw: (path, init) => rawRequest(web.url, path, init),
    async act(kind, target) {
      const path = `/actions/${kind}/${target}`;
      const page = await get(path);
      if (page.status !== 200) return page;
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
      // As a browser posts the page's form: with the page's origin.
      return get(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: web.url },
        body: new URLSearchParams({ csrf }).toString(),
      });
    },
  };
}
