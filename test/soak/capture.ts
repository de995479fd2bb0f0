/** A stream that keeps what is written to it: a logger's or a command's output, to scan afterwards. */
import { Writable } from "node:stream";

export function captureLog(): { stream: Writable; text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}
