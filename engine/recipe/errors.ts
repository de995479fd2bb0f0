/** A problem in a recipe or project file, always tied to a position so editors and CI can point at it. */
export interface RecipeIssue {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  col: number;
  message: string;
}

export function formatIssue(issue: RecipeIssue): string {
  return `${issue.file}:${issue.line}:${issue.col} ${issue.message}`;
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
