/**
 * A bundled chunk's code (scripts/bundle-commands.mjs) with every character outside ASCII written
 * as a `\uXXXX` escape (one per UTF-16 unit).
 *
 * Why: a file read as UTF-8 that holds a single such character becomes a two-byte string, twice its
 * bytes in memory, slower to decode, to copy into the loader's wrapper and to hash. esbuild's
 * `charset: "ascii"` escapes strings and names but leaves comments, regular expressions and
 * template literals as they were, and undici's comments (`response’s`) alone made its 1.4 MB chunk
 * 2.8 MB of heap: with the engine's chunks, enough for a `sync` to run a full mark-compact (some
 * 30 ms at a load of 7) before it sent its first request.
 * In a comment the escape is only text; in a regular expression, a string or a template literal
 * `\uXXXX` means the character itself (a surrogate pair as two escapes, as in the source), and a
 * character written with a backslash before it (`\é`) keeps that one backslash. Nothing of ours
 * reads a template's raw text (`String.raw`). A U+2028 or U+2029 would end a `//` comment where it
 * stands, and escaped it would not: the build stops on one instead. The escapes move the columns
 * of what follows them on their line (the source map's columns there are a few characters off);
 * the lines stay where they are.
 */
export function asciiOnly(code, path) {
  if (/[\u2028\u2029]/.test(code)) throw new Error(`${path}: a U+2028 or U+2029 to escape by hand`);
  return code.replace(/(\\*)([^\x00-\x7f])/g, (_, backslashes, c) => {
    const written = `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
    return backslashes.length % 2 === 1 ? backslashes.slice(1) + written : backslashes + written;
  });
}
