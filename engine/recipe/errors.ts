/** A problem in a recipe or project file, always tied to a position so editors and CI can point at it. */
export interface RecipeIssue {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  col: number;
  message: string;
  /**
   * Absent for errors. A warning points at a recipe that loads but likely does not do what its
   * author meant (its items cannot go into its target): shown, never failing a command.
   */
  severity?: "warning";
}

export function formatIssue(issue: RecipeIssue): string {
  const label = issue.severity === "warning" ? "warning: " : "";
  return `${issue.file}:${issue.line}:${issue.col} ${label}${issue.message}`;
}

/** Sorted by position, duplicates (same place, same words) removed. */
export function sortIssues(issues: readonly RecipeIssue[]): RecipeIssue[] {
  const seen = new Set<string>();
  const out: RecipeIssue[] = [];
  for (const issue of issues) {
    const key = formatIssue(issue);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
}
