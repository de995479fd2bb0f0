/**
 * The line each track starts on in a JSON playlist, found by one scan of text JSON.parse has
 * already accepted (JSON.parse gives no positions). Tracks are the root array's elements, or those
 * of the array under the root object's "tracks" key.
 */

interface Frame {
  kind: "[" | "{";
  /** The array whose elements are tracks. */
  tracks: boolean;
  /** In an array: the next value starts an element. */
  awaiting: boolean;
  /** In an object: the next string is a key, and the last key read. */
  expectKey: boolean;
  key: string | null;
}

/** The index of a string's closing quote. */
function stringEnd(text: string, open: number): number {
  let q = text.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
}

function frame(kind: "[" | "{", tracks: boolean): Frame {
  return { kind, tracks, awaiting: kind === "[", expectKey: kind === "{", key: null };
}

export function trackLines(text: string): number[] {
  const stack: Frame[] = [];
  let lines: number[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") line++;
    if (c === "\n" || c === " " || c === "\t" || c === "\r") continue;
    const top = stack[stack.length - 1];
    if (top?.tracks && top.awaiting && c !== "]") lines.push(line);
    if (top) top.awaiting = false;
    if (c === '"') {
      const end = stringEnd(text, i);
      if (top?.expectKey) [top.key, top.expectKey] = [JSON.parse(text.slice(i, end + 1)) as string, false];
      i = end;
    } else if (c === "[" || c === "{") {
      const tracks = c === "[" && (stack.length === 0 || (stack.length === 1 && top?.key === "tracks"));
      if (tracks) lines = []; // a repeated "tracks" key: JSON.parse keeps the last
      stack.push(frame(c, tracks));
    } else if (c === "]" || c === "}") stack.pop();
    else if (c === "," && top) {
      if (top.kind === "[") top.awaiting = true;
      else top.expectKey = true;
    }
  }
  return lines;
}
