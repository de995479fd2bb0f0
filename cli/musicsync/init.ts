/**
 * `musicsync init [dir]`: a project to start from — `musicsync.yaml`, a starter recipe, a
 * `.gitignore` — for real credentials or (`--emulator`) the embedded emulator. An existing file is
 * never overwritten without `--force`: nothing is written then, and the message names the files.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { withoutUserinfo } from "../../engine/accounts/userinfo.js";
import { packageRoot } from "../../shared/package-root.js";
import {
  DEFAULTS,
  gitignoreText,
  type InitChoices,
  projectText,
  STARTER_ID,
  starterRecipeText,
} from "./init-files.js";
import { CliError, type CliIo, type CommandRun } from "./io.js";

/** What init may also use: the terminal to ask on, or (tests) an answer function instead. */
export interface InitIo extends CliIo {
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Asks one question; resolves to the answer ("" keeps the fallback). */
  prompt?: (question: string) => Promise<string>;
}

export interface InitOptions {
  auth?: string;
  account?: string;
  emulator?: boolean;
  baseUrl?: string;
  force?: boolean;
  yes?: boolean;
}

const ACCOUNT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
/** What `base_url` may be (the project schema's rule). */
const BASE_URL = /^https?:\/\/\S+$/;
/** `http://…`, `file:///…`: a scheme and `//`, which no folder a person means to make starts with. */
const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * The folder argument, refused when it is a URL: `init http://127.0.0.1:8080` once made a folder
 * named `http:`. The message says how a URL is given (--base-url) and that nothing was made.
 */
function projectFolder(dir: string): string {
  if (URL_LIKE.test(dir)) {
    // A password in the URL is not repeated (nor suggested for a project file).
    const shown = withoutUserinfo(dir);
    const example = BASE_URL.test(dir) && shown === dir ? dir : "http://127.0.0.1:8080";
    throw new CliError(
      `${JSON.stringify(shown)} is a URL, not a folder; nothing written. init takes the project's folder ` +
        `(default: here); an emulator or service at a URL is given with --base-url, e.g. ` +
        `\`musicsync init my-music --base-url ${example}\`` +
        " (and the headers it signs in with in --auth), or --emulator for one started by each command",
    );
  }
  return resolve(dir);
}

/** `musicsync init [dir]`: writes the project's files, or none when one exists (without --force). */
export async function init(run: CommandRun, dir: string, o: InitOptions): Promise<void> {
  // The streams main.ts hands every command; a test may add its own answers (InitIo's prompt).
  const io: InitIo = run.io;
  const folder = projectFolder(dir);
  const choices = await choose(o, io);
  const files = initFiles(folder, choices);
  const existing = o.force ? [] : files.filter((f) => existsSync(f.path));
  if (existing.length > 0) {
    const names = existing.map((f) => f.path).join(", ");
    throw new CliError(
      `${names} already exist${existing.length === 1 ? "s" : ""}; nothing written (--force overwrites)`,
    );
  }
  for (const f of files) {
    await mkdir(resolve(f.path, ".."), { recursive: true });
    await writeFile(f.path, f.text);
  }
  io.stdout.write(summary(folder, files, choices));
}

/** The flags, and on a terminal the answers to what they leave open. */
async function choose(o: InitOptions, io: InitIo): Promise<InitChoices> {
  const emulator = o.emulator === true;
  const baseUrl = baseUrlOf(o);
  let auth = o.auth ?? DEFAULTS.auth;
  let account = o.account ?? DEFAULTS.account;
  const ask = o.yes || emulator || o.auth || o.account ? null : await asker(io);
  if (ask) {
    try {
      auth =
        (await ask(`Credentials file, from \`musicapi browser\` or \`musicapi oauth\` [${auth}]: `)) || auth;
      account = (await ask(`Account name [${account}]: `)) || account;
    } finally {
      await ask.close();
    }
  }
  if (!ACCOUNT_NAME.test(account)) {
    throw new CliError(`--account ${JSON.stringify(account)}: use letters, digits, _ . - (up to 64)`);
  }
  return { auth: auth.trim(), account, emulator, baseUrl };
}

/** --base-url, checked as the project file will check it; the embedded emulator takes none. */
function baseUrlOf(o: InitOptions): string | null {
  if (o.baseUrl === undefined) return null;
  if (o.emulator)
    throw new CliError("--base-url and --emulator: the embedded emulator has no URL; give one of them");
  const shown = withoutUserinfo(o.baseUrl);
  if (!BASE_URL.test(o.baseUrl))
    throw new CliError(`--base-url ${JSON.stringify(shown)}: must be an http:// or https:// URL`);
  // The project file is meant for git: a password belongs in the credentials, never in it.
  if (shown !== o.baseUrl)
    throw new CliError(
      `--base-url ${JSON.stringify(shown)} holds a user name or password: give the URL without them`,
    );
  return o.baseUrl;
}

type Ask = ((question: string) => Promise<string>) & { close(): Promise<void> };

/** A way to ask, when there is one: the injected prompt, or a terminal on stdin. */
async function asker(io: InitIo): Promise<Ask | null> {
  if (io.prompt) {
    const prompt = io.prompt;
    return Object.assign(async (q: string) => (await prompt(q)).trim(), { close: async () => {} });
  }
  const input = io.stdin ?? process.stdin;
  if (!input.isTTY) return null;
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input, output: io.stdout });
  return Object.assign(async (q: string) => (await rl.question(q)).trim(), {
    close: async () => rl.close(),
  });
}

interface InitFile {
  path: string;
  text: string;
}

function initFiles(folder: string, c: InitChoices): InitFile[] {
  const recipe = join(folder, "recipes", `${STARTER_ID}.yaml`);
  // Editors find the schemas the package ships, by a path relative to each file.
  const schema = (from: string, name: string) =>
    relative(from, join(packageRoot(), "recipes", name))
      .split(sep)
      .join("/");
  return [
    { path: join(folder, "musicsync.yaml"), text: projectText(c, schema(folder, "project.schema.json")) },
    {
      path: recipe,
      text: starterRecipeText(schema(join(folder, "recipes"), "recipe.schema.json"), c.emulator),
    },
    { path: join(folder, ".gitignore"), text: gitignoreText(c) },
  ];
}

function summary(folder: string, files: readonly InitFile[], c: InitChoices): string {
  const here = relative(process.cwd(), folder);
  const lines = [`Wrote ${files.map((f) => relative(folder, f.path)).join(", ")} in ${folder}.`, ""];
  if (c.baseUrl) {
    lines.push(
      `The account's service is ${c.baseUrl}; put the headers it signs in with in ${c.auth} (an emulator`,
      "gives those of its account 1 at /_emulator/accounts/1/headers, as below).",
      "",
    );
  } else if (!c.emulator) {
    lines.push(
      `Put the account's credentials in ${c.auth}: \`musicapi browser\` (headers pasted from the browser)`,
      "or `musicapi oauth` (then add oauth_client to musicsync.yaml).",
      "",
    );
  } else lines.push("The account is the embedded emulator: nothing to sign in to.", "");
  lines.push("Next:");
  if (here !== "") lines.push(`  cd ${here}`);
  if (c.baseUrl)
    lines.push(`  curl -s ${c.baseUrl.replace(/\/+$/, "")}/_emulator/accounts/1/headers -o ${c.auth}`);
  // By name, as the README puts the commands on the PATH (npx would find them too, many times slower).
  lines.push("  musicsync doctor", "  musicsync sync --dry-run", "");
  return lines.join("\n");
}
