/**
 * Recipe files an attacker (or an accident) could hand to `validate` or the daemon, generated so
 * the big ones need not live in the repository. Each must give a `file:line:col` issue (or one
 * naming the file), never a stack trace or a hang. Used by broken-recipes.test.ts and by the soak
 * suite (docs/ENGINE.md#bad-input).
 */

export interface HostileRecipe {
  /** A file name without the extension; also the name of the test case. */
  name: string;
  /** Text (written as UTF-8) or raw bytes. */
  content: string | Uint8Array;
  /** One of the issues' messages must match this. */
  expect: RegExp;
}

const BASE = [
  "apiVersion: musicsync/v1",
  "kind: Recipe",
  "id: hostile",
  "sources:",
  "  - { id: chart, type: chart, country: US }",
  "target:",
  "  type: playlist",
  "  playlist: { title: Mix }",
  "",
].join("\n");

/** The base recipe with one more top-level line. */
const withLine = (line: string) => `${BASE}${line}\n`;
/** The base recipe with `id:` replaced. */
const withId = (id: string) => BASE.replace("id: hostile", `id: ${id}`);
const schedule = (cron: string, tz?: string) =>
  withLine(`schedule: { cron: "${cron}"${tz ? `, timezone: "${tz}"` : ""} }`);
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));

const NESTED = /nested more than 64 levels deep/;
const MIB = 1024 * 1024;

function blockMap(levels: number): string {
  let s = "";
  for (let i = 0; i < levels; i++) s += `${" ".repeat(i)}k:\n`;
  return s;
}

function laughs(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(96 + i);
    const name = String.fromCharCode(97 + i);
    lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(",")}]`);
  }
  return `${BASE}${lines.join("\n")}\n`;
}

/** Aliases stacking nesting: each level adds 30 to the one it names, 5 levels are 150 deep. */
function deepAliases(): string {
  const lines = [`x0: &x0 ${"[".repeat(30)}1${"]".repeat(30)}`];
  for (let i = 1; i < 5; i++) lines.push(`x${i}: &x${i} ${"[".repeat(30)}*x${i - 1}${"]".repeat(30)}`);
  return `${BASE}${lines.join("\n")}\n`;
}

export function hostileRecipes(): HostileRecipe[] {
  return [
    // Nesting: flow and block, 2,000 and 100,000 levels.
    ...[2000, 100_000].flatMap((n) => [
      { name: `deep-flow-seq-${n}`, content: `${BASE}x: ${"[".repeat(n)}${"]".repeat(n)}\n`, expect: NESTED },
      {
        name: `deep-flow-map-${n}`,
        content: `${BASE}x: ${"{a: ".repeat(n)}1${"}".repeat(n)}\n`,
        expect: NESTED,
      },
      { name: `deep-flow-unclosed-${n}`, content: `${BASE}x: ${"[".repeat(n)}\n`, expect: NESTED },
      { name: `deep-block-seq-${n}`, content: `${BASE}x:\n${"- ".repeat(n)}1\n`, expect: NESTED },
      { name: `deep-explicit-keys-${n}`, content: `${"? ".repeat(n)}x\n`, expect: NESTED },
    ]),
    // Block mappings indent one more space per level: 1,400 levels fit in 1 MiB, 2,000 do not.
    { name: "deep-block-map-1400", content: blockMap(1400), expect: NESTED },
    { name: "deep-block-map-2000", content: blockMap(2000), expect: /may be at most 1 MiB/ },
    // Aliases.
    { name: "alias-billion-laughs", content: laughs(), expect: /Excessive alias count/ },
    {
      name: "alias-stacked-nesting",
      content: deepAliases(),
      expect: /nested more than 64 levels deep once aliases/,
    },
    {
      name: "alias-into-itself",
      content: withLine("x: &x [1, *x]"),
      expect: /alias refers to a node that contains it/,
    },
    {
      name: "alias-150000",
      content: withLine(`x: &x 1\ny: [${"*x,".repeat(150_000)}*x]`),
      expect: /more than 100 aliases/,
    },
    { name: "alias-undefined", content: withLine("x: *nowhere"), expect: /nowhere/ },
    {
      name: "merge-into-itself",
      content: withLine("x: &x { <<: *x }"),
      expect: /Excessive alias count|contains it/,
    },
    {
      name: "merge-not-a-mapping",
      content: withLine("target2: { <<: 5 }"),
      expect: /Merge sources must be maps/,
    },
    {
      name: "merge-unknown-key",
      content: withLine("base: &b { nope: 1 }\nextra: { <<: *b }"),
      expect: /unknown property "base"/,
    },
    // Schedules validate once accepted and the daemon then refused.
    { name: "schedule-minute-61", content: schedule("61 7 * * *"), expect: /minute "61" is not valid/ },
    { name: "schedule-hour-25", content: schedule("0 25 * * *"), expect: /hour "25" is not valid/ },
    { name: "schedule-step-zero", content: schedule("*/0 * * * *"), expect: /minute "\*\/0" is not valid/ },
    { name: "schedule-range-backwards", content: schedule("59-1 * * * *"), expect: /runs backwards/ },
    { name: "schedule-letters", content: schedule("a b c d e"), expect: /not a valid cron expression/ },
    { name: "schedule-february-31", content: schedule("0 7 31 2 *"), expect: /no such day/ },
    { name: "schedule-every-second", content: schedule("* * * * * *"), expect: /at most once a minute/ },
    {
      name: "schedule-every-30-seconds",
      content: schedule("*/30 * * * * *"),
      expect: /at most once a minute/,
    },
    {
      name: "schedule-seven-fields",
      content: schedule("0 0 7 * * * *"),
      expect: /must be a cron expression|5 or 6 fields/,
    },
    {
      name: "schedule-bad-time-zone",
      content: schedule("0 7 * * *", "UTC+2"),
      expect: /unknown time zone "UTC\+2"/,
    },
    // Bytes that are not YAML text.
    { name: "nul-byte", content: withLine("description: a\0b"), expect: /control character U\+0000/ },
    {
      name: "escape-character",
      content: withLine("description: \x1b[2Jgone"),
      expect: /control character U\+001B/,
    },
    { name: "c1-control", content: withLine("description: a\u009bb"), expect: /control character U\+009B/ },
    {
      name: "delete-character",
      content: withLine("description: a\x7fb"),
      expect: /control character U\+007F/,
    },
    {
      name: "invalid-utf8",
      content: bytes(withLine("description: "), [0xff, 0xfe, 0x41]),
      expect: /invalid UTF-8/,
    },
    {
      name: "overlong-utf8",
      content: bytes(withLine("description: "), [0xc0, 0xaf]),
      expect: /invalid UTF-8/,
    },
    { name: "truncated-utf8", content: bytes(BASE, "description: caf", [0xc3]), expect: /invalid UTF-8/ },
    {
      name: "utf16-file",
      content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(BASE, "utf16le")]),
      expect: /invalid UTF-8/,
    },
    { name: "bom-in-the-middle", content: BASE.replace("kind:", "\uFEFFkind:"), expect: /unknown property/ },
    {
      name: "two-boms",
      content: `\uFEFF\uFEFF${BASE}`,
      expect: /unknown property|missing required property "apiVersion"/,
    },
    // Size.
    {
      name: "ten-mib",
      content: `${BASE}# ${"x".repeat(10 * MIB)}\n`,
      expect: /10\.0 MiB; a recipe or project file may be at most 1 MiB/,
    },
    {
      name: "one-mib-and-a-byte",
      content: `${BASE}#${"x".repeat(MIB - BASE.length - 1)}\n`,
      expect: /may be at most 1 MiB/,
    },
    {
      name: "very-long-line",
      content: BASE.replace("title: Mix", `title: "${"x".repeat(900_000)}"`),
      expect: /title: must be at most/,
    },
    { name: "very-long-key", content: withLine(`? ${"k".repeat(900_000)}\n: 1`), expect: /unknown property/ },
    {
      name: "ninety-thousand-keys",
      content: Array.from({ length: 90_000 }, (_, i) => `k${i}: 1`).join("\n"),
      expect: /more than 1000 keys/,
    },
    {
      name: "two-hundred-thousand-documents",
      content: "---\n".repeat(200_000),
      expect: /more than 1000 documents \(recipes\) in one file/,
    },
    // Keys and values of the wrong kind.
    { name: "duplicate-key", content: withLine("id: again"), expect: /Map keys must be unique/ },
    {
      name: "duplicate-nested-key",
      content: BASE.replace("title: Mix", "title: Mix, title: Max"),
      expect: /Map keys must be unique/,
    },
    {
      name: "collection-as-key",
      content: withLine("? [a, b]\n: 1"),
      expect: /mapping key must be a plain value/,
    },
    {
      name: "tag-js-function",
      content: withLine("description: !!js/function 'function () { return 1 }'"),
      expect: /tag !!js\/function is not allowed/,
    },
    {
      name: "tag-js-undefined",
      content: withLine("description: !!js/undefined ''"),
      expect: /tag !!js\/undefined is not allowed/,
    },
    {
      name: "tag-python-object",
      content: withLine("description: !!python/object:os.system [ls]"),
      expect: /tag !!python\/object:os\.system is not allowed/,
    },
    {
      name: "tag-binary",
      content: withLine("description: !!binary aGVsbG8="),
      expect: /tag !!binary is not allowed/,
    },
    { name: "tag-set", content: withLine("description: !!set { a, b }"), expect: /tag !!set is not allowed/ },
    {
      name: "tag-custom",
      content: withLine("description: !shell rm -rf /"),
      expect: /tag !shell is not allowed/,
    },
    { name: "id-number", content: withId("123"), expect: /id: must be a string/ },
    { name: "id-float", content: withId("1.5e300"), expect: /id: must be a string/ },
    { name: "id-null", content: withId("null"), expect: /id: must be a string/ },
    { name: "id-bool", content: withId("true"), expect: /id: must be a string/ },
    { name: "id-list", content: withId("[a, b]"), expect: /id: must be a string/ },
    { name: "id-mapping", content: withId("{ a: 1 }"), expect: /id: must be a string/ },
    { name: "id-with-newline", content: withId('"a\\nb"'), expect: /id: must be lower-case letters/ },
  ];
}
