import type { Dispatcher } from "undici";

/** An answer as it came: its status, undici's parsed headers, and the whole body's bytes. */
export interface Collected {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const NO_BODY = Buffer.alloc(0);

/**
 * One exchange through `dispatcher`, the body gathered as bytes. undici's `request` hands each
 * answer over as a Readable stream (an async resource, listeners, turns of the event loop while it
 * is read) and the client always reads the body whole, so a handler that only keeps the chunks does
 * the same work for a fraction of the cost per request (bench/parse, a small answer's case).
 * Failures (connection, time-outs the dispatcher enforces) reject with undici's own errors.
 */
export function collect(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions): Promise<Collected> {
  return new Promise((resolve, reject) => {
    try {
      dispatcher.dispatch(options, new Gatherer(resolve, reject));
    } catch (error) {
      reject(error);
    }
  });
}

/** undici's handler interface, keeping the chunks; an informational (1xx) answer is passed over. */
class Gatherer implements Dispatcher.DispatchHandler {
  private statusCode = 0;
  private headers: Collected["headers"] = {};
  private readonly chunks: Buffer[] = [];
  private length = 0;

  constructor(
    private readonly resolve: (answer: Collected) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  /** undici requires it of every handler; there is nothing to do before the answer. */
  onRequestStart(): void {}

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Collected["headers"],
  ): void {
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    this.headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  onResponseEnd(): void {
    const { chunks } = this;
    const body =
      chunks.length === 0
        ? NO_BODY
        : chunks.length === 1
          ? (chunks[0] as Buffer)
          : Buffer.concat(chunks, this.length);
    this.resolve({ statusCode: this.statusCode, headers: this.headers, body });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.reject(error);
  }
}
