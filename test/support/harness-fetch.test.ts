/**
 * The harness's own requests: a connection the server drops under an idempotent request is tried
 * again (a bounded number of times); what still fails names the request and the socket's error.
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { describeFetchFailure, harnessFetch, harnessJson } from "./harness-fetch.js";

/**
 * A server that drops the first `drops` connections as soon as a request arrives on them (as a
 * keep-alive connection closed under a request does), then answers `{"ok":true}`.
 */
async function dropping(drops: number): Promise<{ url: string; connections: () => number; server: Server }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    const n = connections;
    socket.once("data", () => {
      if (n <= drops) socket.destroy();
      else
        socket.end(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: close\r\n\r\n{"ok":true}',
        );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/_emulator/stats`, connections: () => connections, server };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

describe("harnessFetch", () => {
  it("sends a read again when the connection is dropped under it", async () => {
    const s = await dropping(2);
    servers.push(s.server);
    // A bare fetch is what crashed seeds: "fetch failed" and nothing more.
    await expect(fetch(s.url)).rejects.toThrow("fetch failed");
    expect(await harnessJson<{ ok: boolean }>(s.url)).toEqual({ ok: true });
    expect(s.connections()).toBe(3);
  });

  it("gives up after its tries, naming the request and the socket's error", async () => {
    const s = await dropping(100);
    servers.push(s.server);
    const failed = await harnessFetch(s.url).catch((e: Error) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toMatch(
      new RegExp(
        `^harness request GET ${s.url} failed \\(3 tries\\): fetch failed: UND_ERR_SOCKET other side closed$`,
      ),
    );
    expect(s.connections()).toBe(3);
  });

  it("sends a POST once unless it is said to be idempotent", async () => {
    const s = await dropping(1);
    servers.push(s.server);
    const once = await harnessFetch(s.url, { method: "POST", body: "{}" }).catch((e: Error) => e);
    expect((once as Error).message).toContain(`harness request POST ${s.url} failed: fetch failed`);
    expect(s.connections()).toBe(1);
    const again = await harnessFetch(s.url, { method: "POST", body: "{}" }, { idempotent: true });
    expect(again.status).toBe(200);
  });

  it("names a request the server refused", async () => {
    const s = await dropping(1);
    servers.push(s.server);
    s.server.close();
    await new Promise((r) => setTimeout(r, 10));
    const refused = await harnessFetch(s.url, {}, { attempts: 2 }).catch((e: Error) => e);
    expect((refused as Error).message).toContain("failed (2 tries): fetch failed: ECONNREFUSED");
  });

  it("waits a bounded time for each try of a server that never answers", async () => {
    // It holds each connection without a word; they are closed once the test is done.
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    servers.push(silent);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/_emulator/stats`;
    try {
      const stuck = await harnessFetch(url, {}, { attempts: 2, timeoutMs: 100 }).catch((e: Error) => e);
      expect((stuck as Error).message).toBe(
        `harness request GET ${url} failed (2 tries): The operation was aborted due to timeout`,
      );
    } finally {
      for (const socket of held) socket.destroy();
    }
  });

  it("says what failed under a fetch: its cause's code and message", () => {
    const cause = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    expect(describeFetchFailure(new TypeError("fetch failed", { cause }))).toBe(
      "fetch failed: UND_ERR_SOCKET other side closed",
    );
    expect(describeFetchFailure(new Error("no cause"))).toBe("no cause");
    expect(describeFetchFailure("a string")).toBe("a string");
  });
});
