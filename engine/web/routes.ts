/** From a request's path to its page: the read-only pages and health endpoints. */
import type { ServerResponse } from "node:http";
import { detectDrift, renderDriftText } from "../status/drift.js";
import { accountData } from "./account-data.js";
import { accountPage } from "./account-page.js";
import { indexData, runDetail } from "./data.js";
import type { WebHost } from "./host.js";
import { HttpError, send, sendText } from "./http-io.js";
import { indexPage } from "./index-page.js";
import { resultPage } from "./message-pages.js";
import { runPage } from "./run-page.js";

export async function index(host: WebHost, res: ServerResponse): Promise<void> {
  const data = await indexData(host.env.state, host.recipes(), host.env.clock.now(), host.daemon);
  data.loading = !host.schedulesLoaded();
  send(res, 200, indexPage(data));
}

export async function run(host: WebHost, res: ServerResponse, idText: string): Promise<void> {
  if (!/^[1-9]\d{0,15}$/.test(idText)) throw new HttpError(400, `"${idText}" is not a run id`);
  const detail = await runDetail(
    host.env.state,
    Number(idText),
    host.env.clock.now(),
    host.project.undo.max_age_days,
  );
  if (!detail) throw new HttpError(404, `no run #${idText}`);
  send(res, 200, runPage(detail));
}

export async function account(host: WebHost, res: ServerResponse, name: string): Promise<void> {
  const data = await accountData(
    host.project,
    host.projectFile,
    host.env.state,
    host.recipes(),
    name,
    host.env.clock.now(),
  );
  if (!data) throw new HttpError(404, `no account named ${name}`);
  send(res, 200, accountPage(data));
}

/** Reads the target from the service (no write, no lock), as `musicsync drift -r` does. */
export async function drift(host: WebHost, res: ServerResponse, id: string): Promise<void> {
  const loaded = host.recipes().find((r) => r.recipe.id === id);
  if (!loaded) throw new HttpError(404, `no recipe with id ${id}`);
  try {
    const report = await detectDrift(loaded, host.env.state, host.env.clientFor(loaded.recipe.account));
    send(res, 200, resultPage({ title: `Drift of ${id}`, lines: [], pre: renderDriftText([report]) }));
  } catch (e) {
    throw new HttpError(
      502,
      `cannot read the target of ${id}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

export async function ready(host: WebHost, res: ServerResponse): Promise<void> {
  let stateAnswers = true;
  try {
    await host.env.state.locks();
  } catch {
    stateAnswers = false;
  }
  if (!stateAnswers) return sendText(res, 503, "state not reachable\n");
  if (!host.schedulesLoaded()) return sendText(res, 503, "schedules not loaded\n");
  sendText(res, 200, "ready\n");
}

export async function metrics(res: ServerResponse): Promise<void> {
  // Written out, so the command's bundle carries the module (a path in a variable would not be).
  const { metricsText: text } = await import("../metrics/index.js");
  const m = await text();
  sendText(res, 200, m.body, m.contentType);
}
