/**
 * Every relative link of the README and the guides leads somewhere: to a file or folder of the
 * repository, and, with a `#anchor`, to a heading of that Markdown file (or of the same file).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/cli-process.js";
import { headingAnchors, relativeLinks } from "./markdown.js";

const FILES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  "recipes/README.md",
  "emulator/README.md",
];

/** What is wrong with one link of `file`, or null when it leads somewhere. */
function broken(file: string, target: string): string | null {
  const [path = "", anchor] = target.split("#");
  const to = path === "" ? join(ROOT, file) : join(ROOT, dirname(file), decodeURIComponent(path));
  if (relative(ROOT, to).startsWith("..")) return "leads outside the repository";
  if (!existsSync(to)) return "no such file";
  if (anchor === undefined) return null;
  if (!to.endsWith(".md") || !statSync(to).isFile()) return "an anchor into something not Markdown";
  return headingAnchors(readFileSync(to, "utf8")).has(anchor) ? null : `no heading #${anchor}`;
}

describe("links of README.md and docs/", () => {
  it("finds the guides", () => {
    expect(FILES).toEqual(
      expect.arrayContaining(["docs/client.md", "docs/recipes.md", "docs/daemon.md", "docs/accounts.md"]),
    );
  });

  it.each(FILES)(
    "%s: every relative link points at a file that exists, and each anchor at a heading",
    (file) => {
      const text = readFileSync(join(ROOT, file), "utf8");
      const bad = relativeLinks(text).flatMap((link) => {
        const why = broken(file, link.target);
        return why === null ? [] : [`${file}:${link.line}: (${link.target}) ${why}`];
      });
      expect(bad).toEqual([]);
    },
  );
});

describe("links and anchors, read as GitHub reads them", () => {
  const text = [
    "# Options of `new MusicClient(options)`",
    "## Many accounts: PostgreSQL and workers",
    "## Notes",
    "## Notes",
    "See [a](docs/a.md#x), ![p](p.png 'title'), [web](https://example.org), `[code](no.md)`.",
    "```sh",
    "[inside](code.md)",
    "## not a heading",
    "```",
  ].join("\n");

  it("anchors headings in lower case, punctuation dropped, repeats numbered", () => {
    expect([...headingAnchors(text)]).toEqual([
      "options-of-new-musicclientoptions",
      "many-accounts-postgresql-and-workers",
      "notes",
      "notes-1",
    ]);
  });

  it("finds relative links outside code only", () => {
    expect(relativeLinks(text).map((l) => l.target)).toEqual(["docs/a.md#x", "p.png"]);
  });

  it("names a missing file and a missing heading", () => {
    expect(broken("README.md", "docs/nowhere.md")).toBe("no such file");
    expect(broken("README.md", "docs/client.md#nowhere")).toBe("no heading #nowhere");
    expect(broken("docs/client.md", "#errors")).toBeNull();
    expect(broken("docs/client.md", "../../outside")).toBe("leads outside the repository");
  });
});
