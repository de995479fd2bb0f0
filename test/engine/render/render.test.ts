import { describe, expect, it } from "vitest";
import { plan } from "../../../engine/plan/plan.js";
import type { Plan, PlanPolicy } from "../../../engine/plan/types.js";
import { DEFAULT_POLICY } from "../../../engine/recipe/defaults.js";
import type { TargetSpec } from "../../../engine/recipe/types.js";
import { PlanFormatError, parsePlansJson, renderPlansJson } from "../../../engine/render/json.js";
import { escapeMarkdown, renderPlansMarkdown } from "../../../engine/render/markdown.js";
import { renderPlansText, renderPlanText, summaryLine } from "../../../engine/render/text.js";
import { list, rows, track } from "../support/fixtures.js";

const target: TargetSpec = {
  type: "playlist",
  playlist: { id: "PLx", title: "Road | Trip", description: null, privacy: null },
  allow_delete: false,
};
const policy: PlanPolicy = { ...DEFAULT_POLICY, mode: "mirror" };
const owned = { playlist: true, rows: new Set<string>(), tombstones: new Set<string>() };

function makePlan(wanted: string[], have: string[], skipped = false): Plan {
  const items = list("chart", wanted);
  return plan(
    {
      recipe: { id: "road-trip", hash: "abc", account: "default", target },
      items,
      skipped: skipped ? [{ item: track("Gone*", { source: "chart", rank: 9 }), reason: "unavailable" }] : [],
      sourceTotal: items.length,
      truncatedSources: [],
    },
    {
      exists: true,
      playlistId: "PLx",
      title: "Road | Trip",
      description: null,
      privacy: null,
      rows: rows(have),
      truncated: false,
    },
    owned,
    policy,
  );
}

describe("text", () => {
  it("prints one symbol per change, guards and the summary line", () => {
    const text = renderPlanText(makePlan(["b", "a", "new"], ["a", "b", "old"], true));
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toBe('road-trip: playlist "Road | Trip" (PLx) [mirror]');
    expect(lines).toContain("  + add new — Artist <new________> [chart #3]");
    expect(lines).toContain("  - remove old — Artist <old________> (not desired)");
    expect(lines.filter((l) => l.startsWith("  ~ move "))).toHaveLength(1);
    expect(lines).toContain("  ! skip Gone* — Artist <Gone*______> (unavailable)");
    expect(lines.at(-1)).toBe(
      "Plan: 1 to add, 1 to remove, 1 to move, 0 to rate; 1 skipped, 1 unchanged; 3 write requests.",
    );
  });

  it("says No changes. explicitly when nothing is to be written", () => {
    const p = makePlan(["a", "b"], ["a", "b"]);
    expect(summaryLine(p)).toBe("No changes. 2 unchanged, 0 skipped.");
    expect(renderPlanText(p)).not.toMatch(/^\s+[+\-~*] /m);
    expect(renderPlansText([])).toContain("No changes.");
  });

  it("lists kept rows only when verbose, and colours only when asked", () => {
    const p = makePlan(["a", "b"], ["a", "b"]);
    expect(renderPlanText(p, { verbose: true })).toContain("keep a — Artist");
    expect(renderPlanText(p)).not.toContain("\u001b[");
    expect(renderPlanText(makePlan(["a"], []), { color: true })).toContain("\u001b[32m+ add");
  });

  it("says the skipped items of one reason in one line beyond three, and lists each when verbose", () => {
    const items = list("chart", ["a", "b", "c", "d", "e", "f"]);
    /** A plan keeping "a", with these skipped. */
    const skipping = (skipped: { item: (typeof items)[number]; reason: string }[]) =>
      plan(
        {
          recipe: { id: "top", hash: "h", account: "default", target },
          items: items.slice(0, 1),
          skipped,
          sourceTotal: items.length + skipped.length,
          truncatedSources: [],
        },
        {
          exists: true,
          playlistId: "PLx",
          title: "T",
          description: null,
          privacy: null,
          rows: rows(["a"]),
          truncated: false,
        },
        owned,
        policy,
      );
    const skipped = items.slice(1).map((item) => ({ item, reason: "over the limit of 1" }));
    const withSkips = (n: number) =>
      skipping([...skipped.slice(0, n), { item: track("Gone*"), reason: "unavailable" }]);
    const skipLines = (text: string) => text.split("\n").filter((l) => l.startsWith("  ! skip"));
    // Three of a reason: each listed, as before.
    expect(skipLines(renderPlanText(withSkips(3)))).toHaveLength(4);
    const five = skipLines(renderPlanText(withSkips(5)));
    expect(five).toEqual([
      "  ! skip 5 items (over the limit of 1): b — Artist; c — Artist; d — Artist; … (-v lists each)",
      "  ! skip Gone* — Artist <Gone*______> (unavailable)",
    ]);
    const verbose = skipLines(renderPlanText(withSkips(5), { verbose: true }));
    expect(verbose.filter((l) => l.endsWith("(over the limit of 1)"))).toHaveLength(5);
    // The summary line still counts every skip.
    expect(summaryLine(withSkips(5))).toContain("6 skipped");
    // The pull request's comment says them as the terminal does; verbose lists each.
    const md = renderPlansMarkdown([withSkips(5)]);
    expect(md).toContain(
      "! skip 5 items (over the limit of 1): b — Artist; c — Artist; d — Artist; … (-v lists each)",
    );
    expect(md.match(/\(over the limit of 1\)$/gm)).toBeNull();
    expect(
      renderPlansMarkdown([withSkips(5)], [], { verbose: true }).match(/\(over the limit of 1\)$/gm),
    ).toHaveLength(5);
    // Duplicates each name the item they repeat: counted as one reason all the same.
    const dupes = list("chart", ["p", "q", "r", "s"]).map((item, i) => ({
      item,
      reason: `duplicate of x${i} (#${i + 1} of chart)`,
    }));
    const deduped = skipping(dupes);
    expect(skipLines(renderPlanText(deduped))).toEqual([
      "  ! skip 4 items (duplicate of an earlier item): p — Artist; q — Artist; r — Artist; … (-v lists each)",
    ]);
    expect(skipLines(renderPlanText(deduped, { verbose: true }))[0]).toMatch(
      /\(duplicate of x0 \(#1 of chart\)\)$/,
    );
  });

  it("counts the songs a new playlist is created with, in the singular for one", () => {
    const creating = (wanted: string[]) =>
      plan(
        {
          recipe: {
            id: "new",
            hash: "h",
            account: "default",
            target: { ...target, playlist: { ...target.playlist, id: null } },
          },
          items: list("chart", wanted),
          skipped: [],
          sourceTotal: wanted.length,
          truncatedSources: [],
        },
        {
          exists: false,
          playlistId: null,
          title: null,
          description: null,
          privacy: null,
          rows: [],
          truncated: false,
        },
        { playlist: false, rows: new Set<string>(), tombstones: new Set<string>() },
        policy,
      );
    expect(renderPlanText(creating(["a"]))).toContain(
      '+ create playlist "Road | Trip" (PRIVATE, 1 item at once)',
    );
    expect(renderPlanText(creating(["a", "b"]))).toContain("(PRIVATE, 2 items at once)");
  });

  it("shows a rating as * rate", () => {
    const likes: TargetSpec = { type: "likes", rating: "LIKE" };
    const p = plan(
      {
        recipe: { id: "likes", hash: "h", account: "a", target: likes },
        items: list("s", ["song"]),
        skipped: [],
        sourceTotal: 1,
        truncatedSources: [],
      },
      {
        exists: true,
        playlistId: "LM",
        title: null,
        description: null,
        privacy: null,
        rows: [],
        truncated: false,
      },
      owned,
      policy,
    );
    expect(renderPlanText(p)).toContain("  * rate song — Artist <song_______> [s #1] (rating LIKE)");
    expect(summaryLine(p)).toMatch(/^Plan: 0 to add, 0 to remove, 0 to move, 1 to rate;/);
  });
});

describe("json", () => {
  it("round-trips a versioned document", () => {
    const p = makePlan(["b", "a"], ["a", "c"]);
    const text = renderPlansJson([p]);
    const doc = parsePlansJson(text);
    expect(doc.format).toBe("musicsync-plan");
    expect(doc.version).toBe(1);
    expect(doc.plans[0]).toEqual(JSON.parse(JSON.stringify(p)));
  });

  it("refuses other formats and versions with a clear message", () => {
    expect(() => parsePlansJson("{")).toThrow(PlanFormatError);
    expect(() => parsePlansJson(JSON.stringify({ format: "musicsync-plan", version: 2, plans: [] }))).toThrow(
      "plan version 2 is not supported (this engine reads 1)",
    );
    expect(() => parsePlansJson(JSON.stringify({ format: "other", version: 1, plans: [] }))).toThrow(
      'format must be "musicsync-plan"',
    );
    expect(() =>
      parsePlansJson(
        JSON.stringify({
          format: "musicsync-plan",
          version: 1,
          plans: [{ version: 1, recipe: { id: "x" }, actions: [] }],
        }),
      ),
    ).toThrow("plans[0].account is missing");
  });
});

describe("markdown", () => {
  it("renders a summary table and the changes of each recipe", () => {
    const md = renderPlansMarkdown([
      makePlan(["b", "a", "new"], ["a", "b", "old"], true),
      makePlan(["a"], ["a"]),
    ]);
    expect(md).toContain("| recipe | target | mode | add | remove | move | rate | skip | result |");
    expect(md).toContain(
      '| road-trip | playlist "Road \\| Trip" \\(PLx\\) | mirror | 1 | 1 | 1 | 0 | 1 | 3 requests |',
    );
    expect(md).toContain("| no changes |");
    expect(md).toContain("```diff\n+ add new — Artist");
    expect(md).toContain("- remove old — Artist");
    expect(md).toContain("<details><summary>");
    // The unchanged plan has nothing to fold out.
    expect(md.match(/<details>/g)).toHaveLength(1);
  });

  it("says No changes. when no plan writes anything", () => {
    expect(renderPlansMarkdown([makePlan(["a"], ["a"])])).toContain("**No changes.**");
  });

  it("escapes what Markdown would format", () => {
    expect(escapeMarkdown("a|b *c* <d>\nnext")).toBe("a\\|b \\*c\\* \\<d\\> next");
  });
});
