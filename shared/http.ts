/**
 * The small HTTP helpers of our two servers, the emulator and the status page (engine/web): an
 * answer with its length, and a request body read up to a limit. Each server keeps its own
 * headers and error formats; what they share is how a body leaves and how one is taken in.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";

/** Answers `body` with its length; a HEAD request gets the headers alone. */
export function sendBody(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: OutgoingHttpHeaders,
): void {
  res.writeHead(status, { ...headers, "content-length": Buffer.byteLength(body) });
  res.end(res.req.method === "HEAD" ? undefined : body);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  sendBody(res, status, JSON.stringify(value), {
    "content-type": "application/json; charset=UTF-8",
    ...headers,
  });
}

/**
 * The body, refused with `tooLarge()` as soon as it passes `limit` bytes. The rest of an oversized
 * body is read and dropped, not kept: stopping the read would reset the connection, and a client
 * still sending would never see the refusal.
 */
export function readBody(req: IncomingMessage, limit: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off("data", onData);
      req.resume();
      reject(tooLarge());
    };
    req.on("data", onData);
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
