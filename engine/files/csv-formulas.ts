/**
 * Spreadsheet formulas in exported CSV cells. A spreadsheet program runs a cell that begins with
 * `=`, `+`, `-` or `@` (and, after a tab or a line break, what follows), so a song titled
 * `=HYPERLINK(…)` or `+cmd|…` in an export would run when the file is opened. As OWASP's
 * "CSV Injection" guidance says, such a cell is written with a single quote in front (and always
 * quoted), which the program shows as text. Full-width ＝＋－＠ are treated the same: some
 * programs fold them to their ASCII forms on input.
 *
 * The rule is exact both ways: a cell that begins with any run of `'` and then one of those
 * characters gets one more `'` in front; reading, a cell that begins that way loses its first
 * `'`. So `=x` is written `'=x`, `'=x` is written `''=x`, and each reads back as it was; a cell
 * such as `'Til Tuesday` (a quote, then a letter) is never touched.
 */
const FORMULA_START = /^'*[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;
const NEUTRALISED = /^'+[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

/** The cell with a `'` in front when a spreadsheet would read it as a formula. */
export function neutraliseFormula(value: string): { value: string; neutralised: boolean } {
  return FORMULA_START.test(value)
    ? { value: `'${value}`, neutralised: true }
    : { value, neutralised: false };
}

/** The cell as it was before neutraliseFormula: one leading `'` off a cell that begins that way. */
export function restoreFormula(value: string): string {
  return NEUTRALISED.test(value) ? value.slice(1) : value;
}
