/**
 * The docs tests read a guide as a reader does: no code block may slip past them (an indented one
 * in a list, a `~~~` fence), a `not run` mark covers only the block right after it, and each shell
 * line keeps its promised exit code.
 */
import { describe, expect, it } from "vitest";
import { portsIn, printsAsShown, swapPorts } from "./code-runner.js";
import { codeBlocks, sessionSteps } from "./markdown.js";

const GUIDE = [
  "# A guide",
  "",
  "<!-- not run: needs a real account -->",
  "```sh",
  "musicapi browser -o browser.json",
  "```",
  "```sh",
  "musicsync plan   # exit 2: changes pending",
  "musicsync daemon --http 127.0.0.1:8484   # in a second terminal: until Ctrl-C",
  "musicsync sync \\",
  "  -r starter     # exit 3",
  "```",
  "1. In a list:",
  "",
  "   ```sh",
  "   musicsync status",
  "   ```",
  "~~~sh",
  "musicsync drift",
  "~~~",
  "```yaml recipes/mix.yaml",
  "id: mix",
  "```",
  "```ts",
  "console.log(1);",
  "```",
].join("\n");

describe("codeBlocks", () => {
  const blocks = codeBlocks(GUIDE);

  it("finds fenced, indented and tilde blocks, with their language, file name and line", () => {
    expect(blocks.map((b) => [b.lang, b.attrs.join(" "), b.line])).toEqual([
      ["sh", "", 4],
      ["sh", "", 7],
      ["sh", "", 15],
      ["sh", "", 18],
      ["yaml", "recipes/mix.yaml", 21],
      ["ts", "", 24],
    ]);
    expect(blocks[2]!.lines).toEqual(["musicsync status"]);
  });

  it("marks only the block right after a not-run comment", () => {
    expect(blocks.map((b) => b.notRun)).toEqual(["needs a real account", null, null, null, null, null]);
  });

  it("refuses a block that is never closed", () => {
    expect(() => codeBlocks("```sh\nmusicsync sync\n")).toThrow("line 1 is never closed");
  });
});

describe("sessionSteps", () => {
  it("runs each line with its exit code, joins continued lines, saves named blocks, skips marked ones", () => {
    const steps = sessionSteps(codeBlocks(GUIDE));
    expect(steps).toEqual([
      { kind: "run", command: "musicsync plan", exit: 2, background: false, line: 8 },
      {
        kind: "run",
        command: "musicsync daemon --http 127.0.0.1:8484",
        exit: 0,
        background: true,
        line: 9,
      },
      { kind: "run", command: "musicsync sync -r starter", exit: 3, background: false, line: 11 },
      { kind: "run", command: "musicsync status", exit: 0, background: false, line: 16 },
      { kind: "run", command: "musicsync drift", exit: 0, background: false, line: 19 },
      { kind: "write", path: "recipes/mix.yaml", text: "id: mix\n", line: 21 },
    ]);
  });
});

describe("what a guide shows, against what ran", () => {
  it("compares printed lines with the shown ones, `…` standing for any text within a line", () => {
    const shown = ["20 songs, the first: …", "Road trip: 10 songs"];
    expect(printsAsShown("20 songs, the first: Wolves (x)\nRoad trip: 10 songs\n", shown)).toBe(true);
    expect(printsAsShown("20 songs, the first: Wolves\nRoad trip: 9 songs\n", shown)).toBe(false);
    expect(printsAsShown("20 songs, the first: a\nb\nRoad trip: 10 songs\n", shown)).toBe(false);
    expect(printsAsShown("", shown)).toBe(false);
  });

  it("swaps the ports a guide names for the test's, and only those", () => {
    const line =
      "musicapi emulator --port 8080; curl http://127.0.0.1:8080/x http://127.0.0.1:9999/ example.org:8080";
    expect(portsIn(line)).toEqual([8080, 8080, 9999]);
    expect(swapPorts(line, new Map([[8080, 41000]]))).toBe(
      "musicapi emulator --port 41000; curl http://127.0.0.1:41000/x http://127.0.0.1:9999/ example.org:8080",
    );
  });
});
