import { Dispatcher } from "undici";

const JSON_HEADERS = { "content-type": "application/json" };

/** One answer: a status and the bytes of the body. */
export interface BufferAnswer {
  statusCode: number;
  body: Buffer | string;
}

/**
 * An undici dispatcher that answers every request from memory and keeps nothing: no sockets, no
 * record of requests or answers. undici's MockAgent records every call and its response, so a long
 * benchmark through it grows by the whole corpus each round (2.4 GB peak) and pays for that in the
 * figures; this one costs two turns of the event loop per request, less than any real connection.
 */
export class BufferDispatcher extends Dispatcher {
  constructor(private readonly answer: (options: Dispatcher.DispatchOptions) => BufferAnswer) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const { statusCode, body } = this.answer(options);
    const bytes = typeof body === "string" ? Buffer.from(body) : body;
    const controller = new AnswerController();
    const fail = (error: unknown) => handler.onResponseError?.(controller, error as Error);
    // As a connection would: the headers on a later turn (the caller has its promise), the body on a
    // later turn of the event loop (the caller reads it as it comes). A body pushed with the headers,
    // before anyone reads it, stays reachable from undici's stream after it has been read: the
    // benchmark then keeps every response, as with MockAgent.
    queueMicrotask(() => {
      try {
        handler.onRequestStart?.(controller, {});
        handler.onResponseStart?.(controller, statusCode, JSON_HEADERS, "");
      } catch (error) {
        fail(error);
        return;
      }
      setImmediate(() => {
        try {
          if (controller.aborted) return;
          handler.onResponseData?.(controller, bytes);
          handler.onResponseEnd?.(controller, {});
        } catch (error) {
          fail(error);
        }
      });
    });
    return true;
  }

  override async close(): Promise<void> {}

  override async destroy(): Promise<void> {}
}

/** The controller undici's handlers are given: an answer from memory can only be abandoned. */
class AnswerController implements Dispatcher.DispatchController {
  aborted = false;
  reason: Error | null = null;
  readonly paused = false;
  abort(reason: Error): void {
    this.aborted = true;
    this.reason = reason;
  }
  pause(): void {}
  resume(): void {}
}
