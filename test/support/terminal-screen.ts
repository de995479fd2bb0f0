/**
 * A small terminal, enough of a VT100 to show what a person sees after a command wrote to it:
 * text, `\r`, `\n`, `\b`, cursor save and restore (ESC 7 / ESC 8, in screen rows, so a scroll in
 * between lands the restore elsewhere, as on a real terminal), CSI cursor moves (A B C D G) and
 * erases (K, J); colours and modes are ignored. A sequence it does not know fails the test rather
 * than being guessed at.
 */
export interface Rendered {
  /** Every line, scrolled-off ones first, trailing blanks trimmed. */
  lines: string[];
  /** Where the cursor ended (row in `lines`, 0-based column): where the shell's prompt goes. */
  cursor: { row: number; col: number };
}

export function renderTerminal(bytes: string, height = 40): Rendered {
  const t = new Term(height);
  t.write(bytes);
  return t.rendered();
}

class Term {
  private readonly rows: string[][] = [[]];
  private row = 0;
  private col = 0;
  /** The first row on screen; rows above it scrolled off. */
  private top = 0;
  private saved: { row: number; col: number } | null = null;

  constructor(private readonly height: number) {}

  write(s: string): void {
    let i = 0;
    while (i < s.length) {
      const c = s[i]!;
      if (c === "\u001b") i = this.escape(s, i);
      else {
        this.char(c);
        i++;
      }
    }
  }

  private line(): string[] {
    while (this.rows.length <= this.row) this.rows.push([]);
    return this.rows[this.row]!;
  }

  private char(c: string): void {
    if (c === "\r") this.col = 0;
    else if (c === "\n") this.down(1);
    else if (c === "\b") this.col = Math.max(0, this.col - 1);
    else if (c === "\u0007" || c < " ") return;
    else {
      const line = this.line();
      while (line.length < this.col) line.push(" ");
      line[this.col] = c;
      this.col++;
    }
  }

  private down(n: number): void {
    this.row += n;
    this.line();
    if (this.row >= this.top + this.height) this.top = this.row - this.height + 1;
  }

  /** Handles the sequence at `s[i]` (an ESC); returns the index after it. */
  private escape(s: string, i: number): number {
    const next = s[i + 1];
    if (next === "7") this.saved = { row: this.row - this.top, col: this.col };
    else if (next === "8") {
      if (this.saved) [this.row, this.col] = [this.top + this.saved.row, this.saved.col];
    } else if (next === "[") return this.csi(s, i + 2);
    else if (next === "(" || next === ")") return i + 3;
    else throw new Error(`terminal: unknown sequence ESC ${JSON.stringify(next)}`);
    return i + 2;
  }

  private csi(s: string, from: number): number {
    const m = /^([?]?)([0-9;]*)([@-~])/.exec(s.slice(from, from + 32));
    if (!m) throw new Error(`terminal: unreadable CSI at ${JSON.stringify(s.slice(from, from + 12))}`);
    const [whole, priv, params, final] = m as unknown as [string, string, string, string];
    const n = params === "" ? null : Number(params.split(";")[0]);
    if (priv === "?" || final === "m") return from + whole.length;
    const line = this.line();
    switch (final) {
      case "A":
        this.row = Math.max(this.top, this.row - (n || 1));
        break;
      case "B":
        this.down(n || 1);
        break;
      case "C":
        this.col += n || 1;
        break;
      case "D":
        this.col = Math.max(0, this.col - (n || 1));
        break;
      case "G":
        this.col = Math.max(0, (n || 1) - 1);
        break;
      case "K":
        if (!n) line.splice(this.col);
        else if (n === 1) line.fill(" ", 0, this.col + 1);
        else line.length = 0;
        break;
      case "J":
        if (n === 2) for (let r = this.top; r < this.rows.length; r++) this.rows[r] = [];
        else {
          line.splice(this.col);
          this.rows.length = this.row + 1;
        }
        break;
      default:
        throw new Error(`terminal: unknown CSI ${JSON.stringify(whole)}`);
    }
    return from + whole.length;
  }

  rendered(): Rendered {
    return {
      lines: this.rows.map((r) => r.join("").trimEnd()),
      cursor: { row: this.row, col: this.col },
    };
  }
}
