/**
 * The shell lines of a Markdown file's code blocks, read as a reader sees them: which block they
 * are in, and the exit code a `# exit N` comment promises (0 without one).
 */

export interface ShellLine {
  /** The command as written, without its comment. */
  command: string;
  /** What `# exit N` at the start of the line's comment says; 0 when it says nothing. */
  exit: number;
  /** The block's info string, e.g. `sh quick-start`. */
  info: string;
  /** 1-based line in the Markdown file, for messages. */
  line: number;
}

const FENCE = /^```(.*)$/;

/** Every non-empty line of every fenced code block, in order. */
export function codeLines(markdown: string): ShellLine[] {
  const out: ShellLine[] = [];
  let info: string | null = null;
  markdown.split("\n").forEach((text, i) => {
    const fence = FENCE.exec(text);
    if (fence) {
      info = info === null ? fence[1]!.trim() : null;
      return;
    }
    if (info === null || text.trim() === "") return;
    out.push({ ...splitComment(text), info, line: i + 1 });
  });
  return out;
}

/**
 * A line's command and its promised exit code. A comment starts at ` #` outside quotes, which is
 * enough for the README's commands (none has a `#` inside an argument).
 */
export function splitComment(text: string): { command: string; exit: number } {
  const at = text.search(/\s#/);
  const command = (at < 0 ? text : text.slice(0, at)).trim();
  const comment = at < 0 ? "" : text.slice(at).trim();
  const exit = /^#\s*exit (\d+)\b/.exec(comment)?.[1];
  return { command, exit: exit === undefined ? 0 : Number(exit) };
}

/** Whether a command runs musicsync (as `npx musicsync`, or the bare installed command). */
export function runsMusicsync(command: string): boolean {
  return /^(npx )?musicsync(\s|$)/.test(command);
}
