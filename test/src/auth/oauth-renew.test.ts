import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index.js";
import { setupOAuth } from "../../../src/auth/index.js";
import { AuthError, ErrorCodes, MusicClient, type OAuthToken } from "../../../src/index.js";

/**
 * A 401 with an OAuth token: the client refreshes the token once and sends the request once more
 * before giving up with AUTH_EXPIRED (the emulator's `oauth/expire` cuts tokens short as a revoked or
 * clock-skewed token would be). Browser headers cannot be renewed and are not retried.
 */
let emu: RunningEmulator;
let token: OAuthToken;
const credentials = { clientId: "renew-client", clientSecret: "renew-secret" };

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 100, seed: 7 });
  token = await setupOAuth({
    ...credentials,
    deviceCodeUrl: `${emu.url}/o/oauth2/device/code`,
    tokenUrl: `${emu.url}/token`,
    intervalScaleMs: 1,
    output: new PassThrough(),
  });
});
afterAll(async () => {
  await emu?.stop();
});

function oauthClient(baseUrl: string, tokenUrl: string): MusicClient {
  return new MusicClient({
    baseUrl,
    auth: structuredClone(token),
    oauthCredentials: { ...credentials, tokenUrl },
    retry: false,
  });
}

describe("a 401 with an OAuth token", () => {
  it("refreshes the token and succeeds on the one retry", async () => {
    const client = oauthClient(emu.url, `${emu.url}/token`);
    expect((await client.getLibraryPlaylists({ limit: 5 })).length).toBeGreaterThan(0);
    await request(`${emu.url}/_emulator/oauth/expire`, { method: "POST", body: "{}" });
    emu.resetCounts();
    const playlists = await client.getLibraryPlaylists({ limit: 5 });
    expect(playlists.length).toBeGreaterThan(0);
    expect(emu.counts()["oauth/token"]).toBe(1);
  });

  it("also renews for a write, which was refused and so not made", async () => {
    const client = oauthClient(emu.url, `${emu.url}/token`);
    await request(`${emu.url}/_emulator/oauth/expire`, { method: "POST", body: "{}" });
    const id = await client.createPlaylist("after a refresh", "");
    expect(typeof id).toBe("string");
    expect((await client.getPlaylist(id as string)).title).toBe("after a refresh");
  });
});

/** A service that refuses every request with 401 and a token endpoint that always grants one. */
async function refusingService() {
  const seen = { api: 0, token: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/token") {
        seen.token++;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ access_token: `ya29.new-${seen.token}`, expires_in: 3600 }));
      } else if (req.url?.startsWith("/youtubei/")) {
        seen.api++;
        res.writeHead(401, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: 401, message: "Request had invalid credentials." } }));
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("a service that keeps refusing", () => {
  let service: Awaited<ReturnType<typeof refusingService>>;
  beforeAll(async () => {
    service = await refusingService();
  });
  afterEach(() => {
    service.seen.api = 0;
    service.seen.token = 0;
  });
  afterAll(async () => {
    await service.close();
  });

  it("gets one refresh and one retry with an OAuth token, then AUTH_EXPIRED", async () => {
    const client = oauthClient(service.url, `${service.url}/token`);
    const error = await client.getLibraryPlaylists().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe(ErrorCodes.AUTH_EXPIRED);
    expect(service.seen).toEqual({ api: 2, token: 1 });
  });

  it("gets no retry with browser headers", async () => {
    const client = new MusicClient({
      baseUrl: service.url,
      auth: JSON.stringify({
        cookie: "__Secure-3PAPISID=renew-sapisid; SAPISID=renew-sapisid",
        "x-goog-authuser": "0",
        "x-goog-visitor-id": "renew-visitor",
      }),
      retry: false,
    });
    const error = await client.getLibraryPlaylists().catch((e: unknown) => e);
    expect((error as AuthError).code).toBe(ErrorCodes.AUTH_EXPIRED);
    expect(service.seen).toEqual({ api: 1, token: 0 });
  });
});
