/**
 * `musicapi call` and `musicapi methods`: one MusicClient method run from the command line, and the
 * list of them. The client and undici are imported when `call` runs.
 */
import type { MusicClientOptions } from "../../src/client.js";
import { AuthError, ErrorCodes } from "../../src/errors.js";
import type { Logger } from "../../src/logger.js";
import { type MusicapiCommand, type MusicapiContext, runAction, UsageError } from "./io.js";

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

export const call: MusicapiCommand = {
  name: "call",
  summary: "call one MusicClient method and print the result as JSON",
  description:
    "call one MusicClient method and print its result as JSON; each argument is parsed as JSON " +
    "when it parses, else taken as text (see `musicapi methods` for the names)",
  arguments: [
    ["<method>", "a MusicClient method, e.g. getSong (get_song works too)"],
    ["[args...]", "its positional arguments"],
  ],
  options: [
    ["--auth <file>", "browser headers or OAuth token file (from `musicapi browser` / `musicapi oauth`)"],
    ["--base-url <url>", "service origin, e.g. an emulator's"],
    ["--upload-url <url>", "upload origin (uploadSong), e.g. the same emulator's"],
    ["--language <code>", "display language (hl)"],
    ["--location <code>", "location (gl)"],
    ["--user <id>", "brand account id"],
    ["--options <json>", "the method's options object, as JSON"],
    ["--proxy <url>", "HTTP(S) proxy"],
    ["--timeout-ms <ms>", "read time-out per request"],
    ["--client-id <id>", "OAuth client id, for an OAuth token (or MUSICAPI_CLIENT_ID)"],
    ["--client-secret <secret>", "OAuth client secret (or MUSICAPI_CLIENT_SECRET)"],
    ["--token-url <url>", "token endpoint that refreshes an OAuth token (an emulator's: <url>/token)"],
  ],
  action: async (context: MusicapiContext, method: string, args: string[], options: CallOptions) => {
    const { io } = context;
    await runAction(context, async () => {
      const debug = Boolean(context.command.optsWithGlobals().debug);
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
      const [{ MusicClient }, { callDispatcher }] = await Promise.all([
        import("../../src/client.js"),
        import("./dispatcher.js"),
      ]);
      const dispatcher = callDispatcher(options.proxy);
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
    });
  },
};

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

export const methods: MusicapiCommand = {
  name: "methods",
  description: "list the MusicClient methods `call` accepts",
  action: async ({ io }: MusicapiContext) => {
    io.stdout.write(`${(await clientMethods()).join("\n")}\n`);
  },
};
