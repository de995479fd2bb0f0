/**
 * One run of a seed made through the status page, as `musicsync serve` makes it: the
 * page over the seed's own engine environment on 127.0.0.1, an action ("run now", "plan", "undo"
 * of an earlier run, "resume", "approve" of a held plan) opened with a good Host, then hostile
 * requests, then the action posted as a browser would. What must hold:
 * - every hostile request gets a 4xx and changes nothing: no write reaches the service and the
 *   state has no new run. The hostile ones: a foreign Host (DNS rebinding: the attacker's name
 *   resolving to 127.0.0.1, reading a page or posting with the form's own CSRF token), a POST from
 *   another origin (Origin, or only a Referer, of another site or another port) carrying a token
 *   read with a good Host, and a POST with no token, a forged one or another action's;
 * - the legit action then answers 2xx (or 409 for a run that failed), and what it says it did is
 *   judged as any run (soak.ts);
 * - no page, error page included, holds a piece of a credential.
 */
import { request } from "node:http";
import type { Plan } from "../../engine/plan/types.js";
import type { LoadedRecipe, Project } from "../../engine/recipe/types.js";
import type { EngineEnv } from "../../engine/run/runner.js";
import type { WebHost } from "../../engine/web/host.js";
import { startWeb } from "../../engine/web/server.js";
import { pick, type Random, shuffled } from "./generate.js";
import type { Found } from "./invariants.js";
import type { PageAction } from "./surfaces.js";

export interface PageContext {
  project: Project;
  projectFile: string;
  /** The run's engine environment (its state, clients and clock); the page does not close it. */
  env: EngineEnv;
  recipes: readonly LoadedRecipe[];
  /** Write requests the service has received so far. */
  writes(): Promise<number>;
  /** Runs the state holds so far. */
  runs(): Promise<number>;
  leaks(where: string, text: string): void;
  trace(line: string): void;
  r: Random;
}

/** What the legit action did, for soak.ts to judge. */
export interface PageOutcome {
  /** The action made (a wanted one with nothing to act on becomes "run"). */
  action: PageAction;
  recipeId: string;
  /** The outcome the page's answer names for the recipe (`converged`, `no_changes`…), or null. */
  outcome: string | null;
  status: number;
  /** The plans the runner applied during the action. */
  plans: Plan[];
  found: Found[];
}

interface Answer {
  status: number;
  body: string;
}

const ATTACKER = "attacker.example";

function send(
  port: number,
  path: string,
  o: {
    method?: string;
    headers?: Record<string, string>;
    form?: Record<string, string>;
    /** A body of another type than a form's. */
    raw?: { type: string; text: string };
  } = {},
): Promise<Answer> {
  const body = o.raw?.text ?? (o.form ? new URLSearchParams(o.form).toString() : undefined);
  const type = o.raw?.type ?? "application/x-www-form-urlencoded";
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: o.method ?? "GET",
        headers: {
          host: `127.0.0.1:${port}`,
          ...(body === undefined
            ? {}
            : {
                "content-type": type,
                "content-length": String(Buffer.byteLength(body)),
              }),
          ...o.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error(`${path}: no answer in 60 s`)));
    req.on("error", reject);
    req.end(body);
  });
}

const csrfOf = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? "";

/** The target the action acts on, or null when there is nothing for it (then the page runs the recipe). */
async function targetOf(ctx: PageContext, action: PageAction, recipeId: string): Promise<string | null> {
  const { state } = ctx.env;
  switch (action) {
    case "run":
    case "plan":
    case "resume":
      return recipeId;
    case "undo": {
      const done = (await state.runs(recipeId, 50)).find(
        (x) => x.result === "converged" || x.result === "partial",
      );
      return done ? String(done.id) : null;
    }
    case "approve": {
      const [held] = await state.approvals({ recipeId });
      return held ? String(held.runId) : null;
    }
  }
}

interface Hostile {
  name: string;
  send(): Promise<Answer>;
}

/** The hostile requests against one action (`path`), each a way a browser could be made to send it. */
function hostileRequests(port: number, path: string, csrf: string, otherCsrf: string, r: Random): Hostile[] {
  const foreignHost = pick(r, [
    `${ATTACKER}:${port}`,
    ATTACKER,
    `127.0.0.1.${ATTACKER}:${port}`,
    `localhost.${ATTACKER}:${port}`,
  ]);
  const post = (headers: Record<string, string>, token: string | null) => () =>
    send(port, path, { method: "POST", headers, form: token === null ? {} : { csrf: token } });
  const forged = Buffer.from(csrf, "base64url").reverse().toString("base64url");
  return [
    {
      name: `GET / with Host ${foreignHost}`,
      send: () => send(port, "/", { headers: { host: foreignHost } }),
    },
    {
      name: `GET ${path} with Host ${foreignHost}`,
      send: () => send(port, path, { headers: { host: foreignHost } }),
    },
    {
      name: `POST with Host ${foreignHost} and the form's token`,
      send: post({ host: foreignHost }, csrf),
    },
    {
      name: `POST with Origin http://${ATTACKER}`,
      send: post({ origin: `http://${ATTACKER}` }, csrf),
    },
    {
      name: `POST with Origin http://127.0.0.1:${port + 1}`,
      send: post({ origin: `http://127.0.0.1:${port + 1}` }, csrf),
    },
    {
      name: `POST with only a Referer of http://${ATTACKER}/`,
      send: post({ referer: `http://${ATTACKER}/music` }, csrf),
    },
    { name: "POST without a CSRF token", send: post({}, null) },
    { name: "POST with a forged CSRF token", send: post({}, forged) },
    { name: "POST with another action's CSRF token", send: post({}, otherCsrf) },
    {
      name: "POST of the form's token as JSON",
      send: () =>
        send(port, path, {
          method: "POST",
          raw: { type: "application/json", text: JSON.stringify({ csrf }) },
        }),
    },
    {
      name: "POST of the form's token in a 64 KB form",
      send: () => send(port, path, { method: "POST", form: { csrf, pad: "x".repeat(64 * 1024) } }),
    },
  ];
}

/** Each hostile request: a 4xx, no write, no new run. */
async function attack(ctx: PageContext, list: Hostile[]): Promise<Found[]> {
  const out: Found[] = [];
  for (const h of list) {
    const writes = await ctx.writes();
    const runs = await ctx.runs();
    const a = await h.send();
    ctx.leaks(`page answer to ${h.name}`, a.body);
    const wrote = (await ctx.writes()) - writes;
    const ran = (await ctx.runs()) - runs;
    ctx.trace(
      `  page: ${h.name}: ${a.status}${wrote ? `, ${wrote} writes` : ""}${ran ? `, ${ran} runs` : ""}`,
    );
    const why = [
      ...(a.status >= 400 && a.status < 500 ? [] : [`answered ${a.status}`]),
      ...(wrote > 0 ? [`${wrote} write requests reached the service`] : []),
      ...(ran > 0 ? [`${ran} new runs in the state`] : []),
    ];
    if (why.length > 0)
      out.push({ invariant: "page-refuses-hostile", detail: `${h.name}: ${why.join(", ")}` });
  }
  return out;
}

/** The recipe's outcome as the answer words it (`soak-1-1: no changes — …`), in the engine's spelling. */
function outcomeIn(body: string, recipeId: string): string | null {
  const text = body.replace(/<[^>]+>/g, " ");
  const m = new RegExp(`${recipeId.replace(/[-]/g, "\\-")}: ([a-z]+(?: [a-z]+)?)`).exec(text);
  if (!m) return null;
  const words = m[1]!.split(" ");
  const two = words.join("_");
  return ["no_changes", "pending_approval"].includes(two) ? two : words[0]!;
}

/** What the legit action must be: answered 2xx (409: a run that failed), named the recipe's outcome. */
function judgeAnswer(
  action: PageAction,
  what: string,
  answer: Answer,
  moved: { wrote: number; ran: number },
): Found[] {
  const out: Found[] = [];
  const bad = (detail: string) =>
    out.push({ invariant: "page-action-answers", detail: `${action} ${what}: ${detail}` });
  if (answer.status >= 500 || (answer.status >= 400 && answer.status !== 409))
    bad(`answered ${answer.status}: ${answer.body.replace(/<[^>]+>/g, " ").slice(0, 200)}`);
  // "Plan" and "resume" write nothing to the service and make no run.
  if ((action === "plan" || action === "resume") && (moved.wrote > 0 || moved.ran > 0))
    bad(`sent ${moved.wrote} writes and made ${moved.ran} runs`);
  if (action === "run" && answer.status < 500 && outcomeIn(answer.body, what) === null)
    bad(`the answer names no outcome of ${what}`);
  return out;
}

/**
 * The action posted as a browser posts its form: with its own origin, or only a Referer of the page
 * (every browser sends Origin with a POST; the page refuses one with neither, unless it carries the
 * bearer token, as a script's would).
 */
async function postLegit(ctx: PageContext, port: number, path: string, csrf: string) {
  const origin = pick<Record<string, string>>(ctx.r, [
    { origin: `http://127.0.0.1:${port}` },
    { referer: `http://127.0.0.1:${port}${path}` },
    { host: `localhost:${port}`, origin: `http://localhost:${port}` },
  ]);
  const writes = await ctx.writes();
  const runs = await ctx.runs();
  const answer = await send(port, path, { method: "POST", headers: origin, form: { csrf } });
  return { answer, moved: { wrote: (await ctx.writes()) - writes, ran: (await ctx.runs()) - runs } };
}

/**
 * The page started over the run's environment, the hostile requests sent, then the action posted;
 * the server is closed before it returns. The plans the runner applies meanwhile are collected.
 */
export async function actThroughPage(
  ctx: PageContext,
  wanted: PageAction,
  recipeId: string,
): Promise<PageOutcome> {
  const plans: Plan[] = [];
  const env = Object.assign(ctx.env, { onPlan: (p: Plan) => plans.push(p) });
  const host: WebHost = {
    project: ctx.project,
    projectFile: ctx.projectFile,
    env,
    recipes: () => [...ctx.recipes],
    schedulesLoaded: () => true,
    daemon: false,
  };
  // The rate limit is not under test here: hostile posts that got through must not starve the legit one.
  const web = await startWeb(host, { address: "127.0.0.1:0", token: null, actionsPerMinute: 1000 });
  const port = Number(new URL(web.url).port);
  try {
    const target = await targetOf(ctx, wanted, recipeId);
    const action: PageAction = target === null ? "run" : wanted;
    const path = `/actions/${action}/${encodeURIComponent(target ?? recipeId)}`;
    ctx.leaks("page /", (await send(port, "/")).body);
    const confirm = await send(port, path);
    ctx.leaks(`page ${path}`, confirm.body);
    const csrf = csrfOf(confirm.body);
    const other = await send(
      port,
      `/actions/${action === "plan" ? "run" : "plan"}/${encodeURIComponent(recipeId)}`,
    );
    const found = await attack(
      ctx,
      shuffled(ctx.r, hostileRequests(port, path, csrf, csrfOf(other.body), ctx.r)),
    );
    plans.length = 0;
    const { answer, moved } = await postLegit(ctx, port, path, csrf);
    ctx.leaks(`page answer to ${action}`, answer.body);
    ctx.trace(`  page: ${action} ${target ?? recipeId}: ${answer.status}`);
    found.push(...judgeAnswer(action, action === "run" ? recipeId : (target ?? recipeId), answer, moved));
    const outcome = outcomeIn(answer.body, recipeId);
    return { action, recipeId, outcome, status: answer.status, plans: [...plans], found };
  } finally {
    delete (env as { onPlan?: unknown }).onPlan;
    await web.close();
  }
}
