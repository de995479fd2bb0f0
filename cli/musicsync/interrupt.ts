/**
 * Ctrl-C (SIGINT) or SIGTERM during `sync` or `apply`: stopped as the daemon stops on SIGTERM (the
 * write in flight finishes, no other is sent, waits end at once: daemon/shutdown.ts), then the
 * command says what was finished, what was left, and that the next run reconciles; exit 130 (143
 * for SIGTERM). A second signal exits at once: the journal holds each write before it is sent, so
 * the next run reconciles whatever that one left too.
 */
import type { EngineClient } from "../../engine/apply/client.js";
import { InterruptedError, Shutdown } from "../../engine/daemon/shutdown.js";
import { type RecipeRun, shortfall } from "../../engine/run/runner.js";
import { actionCounts } from "../../engine/state/counts.js";
import type { EngineState, Stores } from "../../engine/state/types.js";
import type { CliIo, CommandRun } from "./io.js";

/** The shell's convention: 128 + the signal's number. */
const EXIT_CODES: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 };
const SIGNALS = ["SIGINT", "SIGTERM"] as const;

function named(signal: string): string {
  return signal === "SIGINT" ? "Ctrl-C (SIGINT)" : signal;
}

export class Interruption {
  readonly shutdown = new Shutdown();

  constructor(
    private readonly io: CliIo,
    private readonly exitNow: (code: number) => void = (code) => process.exit(code),
  ) {}

  get signal(): string | null {
    return this.shutdown.signal;
  }

  get exitCode(): number {
    return EXIT_CODES[this.signal ?? ""] ?? 1;
  }

  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (this.shutdown.requested) {
      this.io.stderr.write(`${named(signal)} again: quitting now; the next sync reconciles what was sent.\n`);
      this.exitNow(EXIT_CODES[signal] ?? 1);
      return;
    }
    this.shutdown.request(signal);
    this.io.stderr.write(
      `${named(signal)}: stopping — the write in flight finishes, no other is sent (again to quit at once).\n`,
    );
  };

  /** Listens for the signals until the returned function is called. */
  listen(): () => void {
    for (const s of SIGNALS) process.on(s, this.onSignal);
    return () => {
      for (const s of SIGNALS) process.off(s, this.onSignal);
    };
  }

  /**
   * The client as a stopped command may use it: no write once stopped (the one on the wire
   * finishes), and no search either — only planning searches, and waits end at once after a stop,
   * so they would go out unpaced. Other reads pass: an apply verifies its last write by reading.
   */
  client(client: EngineClient): EngineClient {
    const guarded = this.shutdown.guard(client);
    return new Proxy(guarded, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property !== "search" || typeof value !== "function") return value;
        return (...args: unknown[]) =>
          this.signal !== null
            ? Promise.reject(new InterruptedError(this.signal))
            : (value as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
  }

  /**
   * The state, where a run that ends short after the stop is recorded `interrupted`, as the daemon
   * does — also when it ends inside a batch.
   */
  state(state: EngineState): EngineState {
    return this.cutting(state, (stores) => (work) => stores.batch((inner) => work(this.cutting(inner))));
  }

  private cutting<S extends Stores>(stores: S, batch?: (stores: S) => EngineState["batch"]): S {
    const finishRun: Stores["finishRun"] = (runId, end) => {
      const cut = this.signal !== null && (end.result === "partial" || end.result === "failed");
      return stores.finishRun(
        runId,
        cut ? { ...end, result: "interrupted", error: `interrupted by ${this.signal}` } : end,
      );
    };
    return new Proxy(stores, {
      get: (target, property, receiver) => {
        if (property === "finishRun") return finishRun;
        if (property === "batch" && batch) return batch(target);
        return Reflect.get(target, property, receiver);
      },
    });
  }

  /** Runs that ended after the stop with writes left, by recipe id (a split part has its own). */
  private readonly cut = new Map<string, string>();

  /**
   * A run as it ends (the command prints what this returns): one the stop cut short says so in
   * one line, not once per write not sent.
   */
  settled(run: RecipeRun): RecipeRun {
    const how = this.signal === null ? null : cutShort(run);
    if (how === null) return run;
    this.cut.set(run.recipeId, how);
    return { ...run, error: `interrupted by ${this.signal}: ${how}` };
  }

  /**
   * After the runs, when a signal came: what was finished and what was left on stderr, and the
   * signal's exit code. `ids` are the recipes the command was to run, in order.
   */
  finish(run: CommandRun, runs: readonly RecipeRun[], ids: readonly string[]): void {
    if (this.signal === null) return;
    const ran = new Set(runs.map((r) => r.recipeId));
    run.io.stderr.write(
      this.report(
        runs,
        ids.filter((id) => !ran.has(id)),
      ),
    );
    run.setExit(this.exitCode);
  }

  /** What was finished, what was left, and what the next run does. */
  report(runs: readonly RecipeRun[], notStarted: readonly string[]): string {
    const finished: string[] = [];
    const cut: string[] = [];
    for (const r of runs) {
      const how = this.cut.get(r.recipeId);
      if (how !== undefined) cut.push(`${r.recipeId}: ${how}`);
      else finished.push(`${r.recipeId} (${r.outcome.replace("_", " ")})`);
    }
    const lines = [
      `Interrupted by ${named(this.signal ?? "a signal")}.`,
      `  Finished: ${finished.length > 0 ? finished.join(", ") : "none"}`,
      ...cut.map((c) => `  Cut short: ${c}`),
      `  Not started: ${notStarted.length > 0 ? notStarted.join(", ") : "none"}`,
      "Nothing was lost: the next sync reads each target and sends only what is still missing.",
    ];
    return `${lines.join("\n")}\n`;
  }
}

/** How a run the stop cut short stands ("3 of 10 actions confirmed; 7 not sent"), or null. */
function cutShort(run: RecipeRun): string | null {
  const outcomes = run.apply?.outcomes ?? [];
  if (outcomes.some((o) => o.sent === false)) {
    const fates = outcomes.map((o) => ({ status: o.status, sent: o.sent !== false }));
    return shortfall({ ...actionCounts(fates) });
  }
  if (run.apply === null && run.outcome === "failed" && /\binterrupted by SIG/.test(run.error ?? ""))
    return "stopped before its writes";
  return null;
}

/** Runs `body` so that Ctrl-C stops it gracefully (`on`: for a command that writes; else undefined). */
export async function interruptible<T>(
  io: CliIo,
  on: boolean,
  body: (stop: Interruption | undefined) => Promise<T>,
): Promise<T> {
  if (!on) return body(undefined);
  const stop = new Interruption(io);
  const unlisten = stop.listen();
  try {
    return await body(stop);
  } finally {
    unlisten();
  }
}
