/**
 * `musicapi call … | head`: when the reader of stdout goes away, Node raises EPIPE as an unhandled
 * 'error' event and prints a stack. A command line tool stops quietly instead, as `cat` does.
 */
export function stopQuietlyWhenPipeCloses(stream: NodeJS.WriteStream, exit: (code: number) => void): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });
}
