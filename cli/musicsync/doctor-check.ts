/** One line of `musicsync doctor`: how it went, about what, and what to do. */

export type CheckLevel = "ok" | "warning" | "error";

export interface Check {
  level: CheckLevel;
  /** What was checked: `project`, `account default`, `state`, `recipe starter`… */
  subject: string;
  message: string;
}

export const ok = (subject: string, message: string): Check => ({ level: "ok", subject, message });
export const warning = (subject: string, message: string): Check => ({ level: "warning", subject, message });
export const error = (subject: string, message: string): Check => ({ level: "error", subject, message });

export function renderChecks(checks: readonly Check[]): string {
  const lines = checks.map((c) => `${c.level.padEnd(7)} ${c.subject}: ${c.message}`);
  const errors = checks.filter((c) => c.level === "error").length;
  const warnings = checks.filter((c) => c.level === "warning").length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  lines.push("", `${plural(errors, "error")}, ${plural(warnings, "warning")}.`);
  return `${lines.join("\n")}\n`;
}
