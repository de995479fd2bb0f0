/**
 * The servers' body reading (shared/http.ts) as the status page uses it: a form past the limit is
 * refused with a 413 page that reaches the client even while it is still sending (the emulator's
 * side of the same helper: test/emulator/limits.test.ts).
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HttpError, readForm, sendError } from "../../engine/web/http-io.js";

let server: Server | null = null;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function formServer(): Promise<string> {
  server = createServer((req, res) => {
    readForm(req).then(
      (form) => sendError(res, 200, `fields: ${[...form.keys()].join(",")}`),
      (e: unknown) => sendError(res, e instanceof HttpError ? e.status : 500, String(e)),
    );
  });
  await new Promise<void>((ready) => server!.listen(0, "127.0.0.1", ready));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
}

/** Posts `chunks` pieces of `chunk` one after the other; the status, or the error the client saw. */
function post(url: string, chunk: string, chunks: number): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.setTimeout(20_000, () => req.destroy(new Error("no answer")));
    let sent = 0;
    const more = () => {
      while (sent < chunks) {
        sent += 1;
        if (!req.write(chunk)) return void req.once("drain", more);
      }
      req.end();
    };
    more();
  });
}

describe("a form posted to the status page", () => {
  it("within the limit is read", async () => {
    const url = await formServer();
    expect(await post(url, "csrf=abc&x=1", 1)).toBe(200);
  });

  it("past the limit gets its 413 page, though the client is still sending", async () => {
    const url = await formServer();
    // 1 MiB in 64 KiB pieces: far past the 8 KiB limit, and more than the socket buffers hold.
    expect(await post(url, `a=${"x".repeat(65_534)}`, 16)).toBe(413);
  });
});
