/**
 * `musicapi browser` and `musicapi oauth`: setting up credentials. What each needs (the header
 * parser, the OAuth flow) is imported when it runs.
 */
import { readFile } from "node:fs/promises";
import { Option } from "commander";
import { ArgumentError } from "../../src/errors.js";
import { type MusicapiCommand, type MusicapiContext, runAction } from "./io.js";

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

export const browser: MusicapiCommand = {
  name: "browser",
  summary: "save browser request headers (browser.json)",
  description:
    "save browser request headers for authentication: copy the request headers of a POST to " +
    "/youtubei/v1/browse from a signed-in music.youtube.com tab and paste them (or give --file)",
  options: [
    ["--file <path>", "read the copied headers from this file instead of standard input"],
    ["-o, --output <path>", 'where to save the configuration ("-" prints it instead)', "browser.json"],
  ],
  action: async (context: MusicapiContext, options: { file?: string; output: string }) => {
    const { io } = context;
    await runAction(context, async () => {
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
    });
  },
};

interface OAuthFlags {
  clientId?: string;
  clientSecret?: string;
  output: string;
  browser: boolean;
  proxy?: string;
  baseUrl?: string;
  deviceCodeUrl?: string;
  tokenUrl?: string;
  intervalScaleMs?: string;
}

export const oauth: MusicapiCommand = {
  name: "oauth",
  summary: "sign in with OAuth, saving the token (oauth.json)",
  description:
    "sign in with OAuth (device flow) using your own Google Cloud OAuth client of type " +
    '"TVs and Limited Input devices"; the client id and secret may also come from ' +
    "MUSICAPI_CLIENT_ID and MUSICAPI_CLIENT_SECRET",
  options: [
    ["--client-id <id>", "OAuth client id"],
    ["--client-secret <secret>", "OAuth client secret"],
    ["-o, --output <path>", 'where to save the token ("-" prints it instead)', "oauth.json"],
    ["--no-browser", "do not open the verification link in a browser"],
    ["--proxy <url>", "HTTP(S) proxy for the OAuth requests"],
    [
      "--base-url <url>",
      "origin of both endpoints (<url>/o/oauth2/device/code, <url>/token), e.g. an emulator's",
    ],
    ["--device-code-url <url>", "device-code endpoint (default Google's, or from --base-url)"],
    ["--token-url <url>", "token endpoint (default Google's, or from --base-url)"],
    new Option("--interval-scale-ms <ms>", "milliseconds per polling second").hideHelp(),
  ],
  action: async (context: MusicapiContext, options: OAuthFlags) => {
    const { io } = context;
    await runAction(context, async () => {
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
        intervalScaleMs: options.intervalScaleMs === undefined ? undefined : Number(options.intervalScaleMs),
        // The code and link go to stderr when stdout carries the token itself.
        output: toStdout ? io.stderr : io.stdout,
      });
      if (toStdout) io.stdout.write(`${JSON.stringify(token, null, 4)}\n`);
      else io.stdout.write(`Saved the OAuth token to ${options.output} (readable by you only).\n`);
    });
  },
};

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
