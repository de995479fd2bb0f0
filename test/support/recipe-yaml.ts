/**
 * A small recipe of fixed songs as YAML, for tests that write recipe files. Pure, and with no
 * effect at import: the soak imports it without daemon-harness.ts, which lifts the once-a-minute
 * schedule rule for its whole process (a soak seed must see that rule, as a person's process does).
 */
export interface RecipeSpec {
  id: string;
  ids: readonly string[];
  cron?: string;
  title?: string;
  mode?: string;
  /** Reorder on every run, so each run has writes to make. */
  reshuffle?: boolean;
  batch?: number;
  account?: string;
  /** Extra sources (YAML lines under `sources:`). */
  sources?: string[];
}

export function recipeYaml(r: RecipeSpec): string {
  return [
    "apiVersion: musicsync/v1",
    "kind: Recipe",
    `id: ${r.id}`,
    ...(r.account ? [`account: ${r.account}`] : []),
    ...(r.cron ? [`schedule: { cron: "${r.cron}" }`] : []),
    "sources:",
    `  - { id: list, type: static, videoIds: [${r.ids.join(", ")}] }`,
    ...(r.sources ?? []).map((s) => `  - ${s}`),
    ...(r.reshuffle ? ["pipeline:", "  - shuffle: { period: run, seed: test }"] : []),
    "target:",
    "  type: playlist",
    `  playlist: { title: "${r.title ?? r.id}", privacy: PRIVATE }`,
    `mode: ${r.mode ?? "mirror"}`,
    `policy: { batch_size: ${r.batch ?? 3} }`,
    "",
  ].join("\n");
}
