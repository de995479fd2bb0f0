/**
 * What `musicsync init` writes, as text: the project file, a starter recipe and a `.gitignore`.
 * Pure: the command decides where they go and whether it may write them.
 */
import { isAbsolute } from "node:path";

export interface InitChoices {
  /** The account's name in the project file. */
  account: string;
  /** The credentials file, relative to the project (unused with `emulator`). */
  auth: string;
  /** The account is the embedded emulator rather than real credentials. */
  emulator: boolean;
  /** The account's service when it is not the real one (`base_url`: a running emulator…). */
  baseUrl?: string | null;
}

/** The credentials file and the account's name when neither flags nor answers give them. */
export const DEFAULTS = { auth: "browser.json", account: "default" } as const;
export const STATE_FILE = "musicsync.db";
export const EMULATOR_DB = "emulator.db";
export const STARTER_ID = "starter";

/** The project file; its first line points editors at the project schema (`schemaPath`). */
export function projectText(c: InitChoices, schemaPath: string): string {
  const account = c.emulator
    ? [
        "    # The emulator, started for each command: no account needed. Its library lives in",
        `    # ${EMULATOR_DB}. For a real account, replace this line with \`auth: browser.json\`.`,
        `    emulator: { db: ${EMULATOR_DB}, seed: 1, catalogue: 2000, account: 1 }`,
      ]
    : [
        "    # Browser headers made by `musicapi browser`, or an OAuth token made by `musicapi oauth`",
        "    # (then also `oauth_client: { id: …, secret: … }`).",
        `    auth: ${yamlScalar(c.auth)}`,
        ...(c.baseUrl ? [`    base_url: ${JSON.stringify(c.baseUrl)}`] : []),
      ];
  return [
    `# yaml-language-server: $schema=${schemaPath}`,
    "apiVersion: musicsync/v1",
    "kind: Project",
    "accounts:",
    `  ${yamlKey(c.account)}:`,
    ...account,
    "defaults:",
    `  account: ${yamlKey(c.account)}`,
    "recipes: [recipes]",
    `state: ${STATE_FILE}`,
    "",
  ].join("\n");
}

/**
 * The starter recipe. Its first line points editors at the recipe schema. The emulator's generated
 * catalogue always has charts; a real account always has liked songs.
 */
export function starterRecipeText(schemaPath: string, emulator: boolean): string {
  const head = [`# yaml-language-server: $schema=${schemaPath}`];
  const body = emulator
    ? [
        "# Mirrors the US music-video chart into a private playlist, in chart order.",
        "apiVersion: musicsync/v1",
        "kind: Recipe",
        `id: ${STARTER_ID}`,
        "sources:",
        "  - { id: chart, type: chart, country: US, section: videos }",
        "pipeline:",
        "  - dedupe: { by: videoId }",
        "target:",
        "  type: playlist",
        '  playlist: { title: "US Top Videos", privacy: PRIVATE }',
        "mode: mirror",
      ]
    : [
        "# Keeps a private playlist of your newest liked songs. Try `musicsync sync --dry-run` first.",
        "apiVersion: musicsync/v1",
        "kind: Recipe",
        `id: ${STARTER_ID}`,
        "sources:",
        "  - { id: liked, type: liked, limit: 100 }",
        "target:",
        "  type: playlist",
        '  playlist: { title: "Newest likes", privacy: PRIVATE }',
        "mode: mirror",
      ];
  return [...head, ...body, ""].join("\n");
}

/** Keeps the state, the emulator's database and the credentials out of version control. */
export function gitignoreText(c: InitChoices): string {
  return [
    "# musicsync: its state, and credentials (never commit these)",
    `${STATE_FILE}*`,
    ...(c.emulator ? [`${EMULATOR_DB}*`] : isAbsolute(c.auth) ? [] : [c.auth]),
    "browser.json",
    "oauth.json",
    "spotify-token.json",
    "*.token",
    "",
  ]
    .filter((line, i, all) => all.indexOf(line) === i)
    .join("\n");
}

/** A YAML scalar, quoted when plain style could misread it. */
export function yamlScalar(value: string): string {
  return /^[A-Za-z0-9_./-][A-Za-z0-9_ ./-]*$/.test(value) && !value.endsWith(" ")
    ? value
    : JSON.stringify(value);
}

function yamlKey(value: string): string {
  return /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(value) ? value : JSON.stringify(value);
}
