#!/usr/bin/env node
/**
 * The `musicapi` command: credential set-up (`browser`, `oauth`) and `call`, which runs one client
 * method and prints its result as JSON.
 *
 * Other parts add their subcommands by putting a factory in {@link SUBCOMMANDS} (or by passing extra
 * factories to {@link program}); each factory returns a commander `Command` whose action may use
 * {@link runAction} for the common error handling and exit codes.
 *
 * What a subcommand needs (the client, undici, the OAuth flow) is imported when it runs, so that
 * `--help`, `--version` and the other subcommands start without it.
 */
import { realpathSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Command, CommanderError, Option } from "commander";
import type { MusicClientOptions } from "../../src/client.js";
import { ArgumentError, AuthError, ErrorCodes, MusicApiError } from "../../src/errors.js";
import type { Logger } from "../../src/logger.js";
import { stopQuietlyWhenPipeCloses } from "../closed-pipe.js";
import { unsupportedNode } from "../node-support.js";
import { oneLineUsageErrors } from "../usage-errors.js";
import { packageVersion } from "../version.js";
import { emulatorCommand } from "./emulator.js";

/** Exit codes: 0 done, 1 the operation failed, 2 the command line was wrong. */
export const ExitCode = { OK: 0, FAILED: 1, USAGE: 2 } as const;

/** A mistake on the command line (unknown method, options that are not JSON): exit code 2. */
export class UsageError extends Error {}

/** Builds one subcommand, given the streams it should read and write. */
export type SubcommandFactory = (io: CliIo) => Command;

/** Streams a command writes to; tests and embedding callers may replace them. */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const processIo: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/**
 * Runs a command's body: a MusicApiError becomes one line `error CODE: message` on stderr and exit
 * code 1, a UsageError exit code 2; the stack trace only with `--debug`.
 */
export async function runAction(command: Command, body: () => Promise<void>, io: CliIo = processIo) {
  try {
    await body();
  } catch (error) {
    const debug = Boolean(command.optsWithGlobals().debug);
    if (error instanceof UsageError) {
      io.stderr.write(`error: ${error.message}\n`);
      process.exitCode = ExitCode.USAGE;
    } else if (error instanceof MusicApiError) {
      io.stderr.write(`error ${error.code}: ${error.message}\n`);
      process.exitCode = ExitCode.FAILED;
    } else {
      io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = ExitCode.FAILED;
    }
    if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  }
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

async function readTextFile(argument: string, path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new ArgumentError(argument, `cannot read "${path}" (${typeof code === "string" ? code : "error"})`);
  }
}

// ── browser ──────────────────────────────────────────────────────────────────────────────────────

function browserCommand(io: CliIo): Command {
  return new Command("browser")
    .summary("save browser request headers (browser.json)")
    .description(
      "save browser request headers for authentication: copy the request headers of a POST to " +
        "/youtubei/v1/browse from a signed-in music.youtube.com tab and paste them (or give --file)",
    )
    .option("--file <path>", "read the copied headers from this file instead of standard input")
    .option("-o, --output <path>", 'where to save the configuration ("-" prints it instead)', "browser.json")
    .action(async function (this: Command) {
      await runAction(
        this,
        async () => {
          const options = this.opts<{ file?: string; output: string }>();
          let text: string;
          if (options.file !== undefined) {
            text = await readTextFile("file", options.file);
          } else {
            if (io.stdin.isTTY) {
              io.stderr.write("Paste the request headers, then press Ctrl-D (Ctrl-Z, Enter on Windows):\n");
            }
            text = await readStream(io.stdin);
          }
          const toStdout = options.output === "-";
          const { setup } = await import("../../src/auth/browser.js");
          const json = await setup({ headersRaw: text, filepath: toStdout ? undefined : options.output });
          if (toStdout) io.stdout.write(`${json}\n`);
          else io.stdout.write(`Saved the browser headers to ${options.output} (readable by you only).\n`);
        },
        io,
      );
    });
}

// ── oauth ────────────────────────────────────────────────────────────────────────────────────────

function oauthCommand(io: CliIo): Command {
  return new Command("oauth")
    .summary("sign in with OAuth, saving the token (oauth.json)")
    .description(
      "sign in with OAuth (device flow) using your own Google Cloud OAuth client of type " +
        '"TVs and Limited Input devices"; the client id and secret may also come from ' +
        "MUSICAPI_CLIENT_ID and MUSICAPI_CLIENT_SECRET",
    )
    .option("--client-id <id>", "OAuth client id")
    .option("--client-secret <secret>", "OAuth client secret")
    .option("-o, --output <path>", 'where to save the token ("-" prints it instead)', "oauth.json")
    .option("--no-browser", "do not open the verification link in a browser")
    .option("--proxy <url>", "HTTP(S) proxy for the OAuth requests")
    .option(
      "--base-url <url>",
      "origin of both endpoints (<url>/o/oauth2/device/code, <url>/token), e.g. an emulator's",
    )
    .option("--device-code-url <url>", "device-code endpoint (default Google's, or from --base-url)")
    .option("--token-url <url>", "token endpoint (default Google's, or from --base-url)")
    .addOption(new Option("--interval-scale-ms <ms>", "milliseconds per polling second").hideHelp())
    .action(async function (this: Command) {
      await runAction(
        this,
        async () => {
          const options = this.opts<{
            clientId?: string;
            clientSecret?: string;
            output: string;
            browser: boolean;
            proxy?: string;
            baseUrl?: string;
            deviceCodeUrl?: string;
            tokenUrl?: string;
            intervalScaleMs?: string;
          }>();
          const toStdout = options.output === "-";
          const endpoints = oauthEndpoints(options);
          const { setupOAuth } = await import("../../src/auth/oauth-flow.js");
          const token = await setupOAuth({
            clientId: options.clientId ?? process.env.MUSICAPI_CLIENT_ID ?? "",
            clientSecret: options.clientSecret ?? process.env.MUSICAPI_CLIENT_SECRET ?? "",
            filepath: toStdout ? undefined : options.output,
            openBrowser: options.browser,
            proxy: options.proxy,
            ...endpoints,
            intervalScaleMs:
              options.intervalScaleMs === undefined ? undefined : Number(options.intervalScaleMs),
            // The code and link go to stderr when stdout carries the token itself.
            output: toStdout ? io.stderr : io.stdout,
          });
          if (toStdout) io.stdout.write(`${JSON.stringify(token, null, 4)}\n`);
          else io.stdout.write(`Saved the OAuth token to ${options.output} (readable by you only).\n`);
        },
        io,
      );
    });
}

/**
 * The device-code and token endpoints: each as given, else under `--base-url` at the paths Google
 * (and the emulator) serve them, else undefined for Google's own.
 */
export function oauthEndpoints(options: { baseUrl?: string; deviceCodeUrl?: string; tokenUrl?: string }): {
  deviceCodeUrl?: string;
  tokenUrl?: string;
} {
  const base = options.baseUrl?.replace(/\/+$/, "");
  return {
    deviceCodeUrl: options.deviceCodeUrl ?? (base === undefined ? undefined : `${base}/o/oauth2/device/code`),
    tokenUrl: options.tokenUrl ?? (base === undefined ? undefined : `${base}/token`),
  };
}

// ── call / methods ───────────────────────────────────────────────────────────────────────────────

/** The public methods of MusicClient, by name. */
export async function clientMethods(): Promise<string[]> {
  const { MusicClient } = await import("../../src/client.js");
  const prototype = MusicClient.prototype as unknown as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype)
    .filter(
      (name) => name !== "constructor" && !name.startsWith("_") && typeof prototype[name] === "function",
    )
    .sort();
}

/** `get_song` (the interface document's spelling) → `getSong`. */
function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * A positional argument: JSON when it parses (numbers, booleans, arrays, objects, quoted strings),
 * the text itself otherwise — so `abc` is a string and `'"123"'` is the string `123`.
 */
export function parseArgument(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Warnings always reach stderr; debug and info lines only with `--debug`. */
function stderrLogger(stderr: NodeJS.WritableStream, verbose: boolean): Logger {
  const line = (level: string) => (fields: object, message?: string) => {
    stderr.write(`${level}: ${message ?? ""} ${JSON.stringify(fields)}\n`);
  };
  const quiet = () => {};
  return {
    debug: verbose ? line("debug") : quiet,
    info: verbose ? line("info") : quiet,
    warn: line("warn"),
    error: line("error"),
  };
}

interface CallOptions {
  auth?: string;
  baseUrl?: string;
  uploadUrl?: string;
  tokenUrl?: string;
  language?: string;
  location?: string;
  options?: string;
  user?: string;
  proxy?: string;
  timeoutMs?: string;
  clientId?: string;
  clientSecret?: string;
}

function callCommand(io: CliIo): Command {
  return new Command("call")
    .summary("call one MusicClient method and print the result as JSON")
    .description(
      "call one MusicClient method and print its result as JSON; each argument is parsed as JSON " +
        "when it parses, else taken as text (see `musicapi methods` for the names)",
    )
    .argument("<method>", "a MusicClient method, e.g. getSong (get_song works too)")
    .argument("[args...]", "its positional arguments")
    .option(
      "--auth <file>",
      "browser headers or OAuth token file (from `musicapi browser` / `musicapi oauth`)",
    )
    .option("--base-url <url>", "service origin, e.g. an emulator's")
    .option("--upload-url <url>", "upload origin (uploadSong), e.g. the same emulator's")
    .option("--language <code>", "display language (hl)")
    .option("--location <code>", "location (gl)")
    .option("--user <id>", "brand account id")
    .option("--options <json>", "the method's options object, as JSON")
    .option("--proxy <url>", "HTTP(S) proxy")
    .option("--timeout-ms <ms>", "read time-out per request")
    .option("--client-id <id>", "OAuth client id, for an OAuth token (or MUSICAPI_CLIENT_ID)")
    .option("--client-secret <secret>", "OAuth client secret (or MUSICAPI_CLIENT_SECRET)")
    .option("--token-url <url>", "token endpoint that refreshes an OAuth token (an emulator's: <url>/token)")
    .action(async function (this: Command, method: string, args: string[]) {
      await runAction(
        this,
        async () => {
          const options = this.opts<CallOptions>();
          const debug = Boolean(this.optsWithGlobals().debug);
          const methods = await clientMethods();
          const name = methods.includes(method) ? method : camelCase(method);
          if (!methods.includes(name)) {
            throw new UsageError(
              `unknown method "${method}": run \`musicapi methods\` to list the MusicClient methods ` +
                "(camelCase, e.g. getSong; the interface's snake_case names work too)",
            );
          }
          let extra: Record<string, unknown> | undefined;
          if (options.options !== undefined) {
            const parsed = parseArgument(options.options);
            if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
              throw new UsageError("--options must be a JSON object, e.g. --options '{\"limit\": 5}'");
            }
            extra = parsed as Record<string, unknown>;
          }
          const clientId = options.clientId ?? process.env.MUSICAPI_CLIENT_ID;
          const clientSecret = options.clientSecret ?? process.env.MUSICAPI_CLIENT_SECRET;
          const [{ MusicClient }, { Agent, ProxyAgent }] = await Promise.all([
            import("../../src/client.js"),
            import("undici"),
          ]);
          const dispatcher = options.proxy ? new ProxyAgent(options.proxy) : new Agent();
          try {
            const clientOptions: MusicClientOptions = {
              auth: options.auth,
              baseUrl: options.baseUrl,
              uploadUrl: options.uploadUrl,
              language: options.language,
              location: options.location,
              user: options.user,
              timeoutMs: options.timeoutMs === undefined ? undefined : Number(options.timeoutMs),
              dispatcher,
              logger: stderrLogger(io.stderr, debug),
            };
            if (clientId !== undefined || clientSecret !== undefined) {
              clientOptions.oauthCredentials = {
                clientId: clientId ?? "",
                clientSecret: clientSecret ?? "",
                tokenUrl: options.tokenUrl,
              };
            }
            const client = new MusicClient(clientOptions);
            const fn = (client as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!;
            const positional = args.map(parseArgument);
            let result: unknown;
            try {
              result = await fn.apply(client, extra === undefined ? positional : [...positional, extra]);
            } catch (e) {
              throw onTheCommandLine(e);
            }
            io.stdout.write(`${JSON.stringify(result ?? null, null, 2)}\n`);
          } finally {
            await dispatcher.close();
          }
        },
        io,
      );
    });
}

/**
 * The client's "needs credentials" speaks to a library user (construct the client with `auth`); on
 * the command line the same refusal says which option to pass and how to make its file.
 */
function onTheCommandLine(error: unknown): unknown {
  if (!(error instanceof AuthError) || error.code !== ErrorCodes.AUTH_REQUIRED) return error;
  return new AuthError(
    ErrorCodes.AUTH_REQUIRED,
    "this operation needs credentials: pass --auth <file>, browser headers saved with " +
      "`musicapi browser -o browser.json` (or an OAuth token from `musicapi oauth`)",
    { operation: error.operation, cause: error },
  );
}

function methodsCommand(io: CliIo): Command {
  return new Command("methods")
    .description("list the MusicClient methods `call` accepts")
    .action(async () => {
      io.stdout.write(`${(await clientMethods()).join("\n")}\n`);
    });
}

// ── the program ──────────────────────────────────────────────────────────────────────────────────

/** The subcommands `musicapi` has; add yours here (e.g. `emulatorCommand`). */
export const SUBCOMMANDS: readonly SubcommandFactory[] = [
  browserCommand,
  oauthCommand,
  callCommand,
  methodsCommand,
  emulatorCommand,
];

/** The whole `musicapi` command tree, ready for `parseAsync`. */
export function program(extra: readonly SubcommandFactory[] = [], io: CliIo = processIo): Command {
  const root = new Command("musicapi")
    .description("YouTube Music web API client: credential set-up and one-off calls")
    .version(packageVersion(), "-V, --version", "print the version")
    .option("--debug", "print stack traces and debug logs");
  for (const factory of SUBCOMMANDS) root.addCommand(factory(io));
  for (const factory of extra) root.addCommand(factory(io));
  oneLineUsageErrors(root);
  // Commander's own usage errors (unknown option, missing argument) should exit 2 like ours.
  root.exitOverride();
  for (const command of root.commands) command.exitOverride();
  return root;
}

export async function main(argv: readonly string[] = process.argv): Promise<void> {
  try {
    await program().parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
      return;
    }
    throw error;
  }
}

/** Whether this module is the script being run (directly, through tsx, or through the bin link). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

const tooOld = isEntryPoint() ? unsupportedNode("musicapi") : null;
if (tooOld !== null) {
  process.stderr.write(`error: ${tooOld}\n`);
  process.exitCode = ExitCode.FAILED;
} else if (isEntryPoint()) {
  stopQuietlyWhenPipeCloses(process.stdout, process.exit);
  await main();
}
