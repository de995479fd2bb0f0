import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, sapisidHash, startEmulator } from "../../emulator/index.js";
import { api, at, call, headersFor, type Json } from "./helpers.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 200, seed: 3, oauth: { autoApproveAfterPolls: null } });
});
afterAll(async () => {
  await emu?.stop();
});

const LIBRARY = { browseId: "FEmusic_liked_videos" };

function sapisidOf(headers: Record<string, string>): string {
  return /__Secure-3PAPISID=([^;]+)/.exec(headers.cookie ?? "")![1]!;
}

describe("browser-cookie auth (SAPISIDHASH)", () => {
  it("accepts a valid hash for the cookie's SAPISID and serves that account's library", async () => {
    const h = await headersFor(emu, 1);
    const r = await api(emu, "browse", LIBRARY, h);
    expect(r.status).toBe(200);
    const account = await api(emu, "account/account_menu", {}, h);
    expect(
      at(
        account.json,
        "actions",
        0,
        "openPopupAction",
        "popup",
        "multiPageMenuRenderer",
        "header",
        "activeAccountHeaderRenderer",
        "accountName",
        "runs",
        0,
        "text",
      ),
    ).toBe("Emma Example");
  });

  it("accepts a hash made with the www origin (YouTube.js) too", async () => {
    const h = await headersFor(emu, 2);
    const ts = Math.floor(Date.now() / 1000);
    const r = await api(emu, "browse", LIBRARY, {
      ...h,
      authorization: sapisidHash(sapisidOf(h), "https://www.youtube.com", ts),
    });
    expect(r.status).toBe(200);
  });

  it("refuses a wrong hash with 401", async () => {
    const h = await headersFor(emu, 1);
    const bad = h.authorization!.replace(/_([0-9a-f])/, (_, c: string) => `_${c === "0" ? "1" : "0"}`);
    const r = await api(emu, "browse", LIBRARY, { ...h, authorization: bad });
    expect(r.status).toBe(401);
    expect(at(r.json, "error", "status")).toBe("UNAUTHENTICATED");
  });

  it("refuses an old timestamp but tolerates a small clock skew", async () => {
    const h = await headersFor(emu, 1);
    const sapisid = sapisidOf(h);
    const now = Math.floor(Date.now() / 1000);
    const old = await api(emu, "browse", LIBRARY, {
      ...h,
      authorization: sapisidHash(sapisid, "https://music.youtube.com", now - 3 * 3600),
    });
    expect(old.status).toBe(401);
    const skewed = await api(emu, "browse", LIBRARY, {
      ...h,
      authorization: sapisidHash(sapisid, "https://music.youtube.com", now + 60),
    });
    expect(skewed.status).toBe(200);
  });

  it("never echoes a credential in an error", async () => {
    const h = await headersFor(emu, 1);
    const r = await api(emu, "browse", LIBRARY, { ...h, authorization: "SAPISIDHASH 1_" + "a".repeat(40) });
    expect(r.text).not.toContain(sapisidOf(h));
  });

  it("acts for a brand account through onBehalfOfUser, and refuses someone else's page id", async () => {
    const accounts = at((await call(emu, "/_emulator/accounts")).json, "accounts") as Json[];
    const brand = accounts.find((a) => a.brand === true)!;
    const h1 = await headersFor(emu, 1);
    const r = await api(emu, "account/account_menu", {}, h1, { user: String(brand.pageId) });
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.json)).toContain(String(brand.name));
    const h2 = await headersFor(emu, 2);
    const refused = await api(emu, "account/account_menu", {}, h2, { user: String(brand.pageId) });
    expect(refused.status).toBe(403);
  });

  it("answers library requests without credentials with 401 and public pages normally", async () => {
    const r = await api(emu, "browse", LIBRARY);
    expect(r.status).toBe(401);
    expect(typeof at(r.json, "error", "message")).toBe("string");
    expect((await api(emu, "browse", { browseId: "FEmusic_home" })).status).toBe(200);
  });
});

describe("OAuth device flow", () => {
  const form = (o: Record<string, string>) => ({
    body: new URLSearchParams(o).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });

  it("issues a device code, answers pending until approved, then tokens that work and refresh", async () => {
    const code = await call(
      emu,
      "/o/oauth2/device/code",
      form({ client_id: "cid", scope: "https://www.googleapis.com/auth/youtube" }),
    );
    expect(code.status).toBe(200);
    const c = code.json as Json;
    expect(c.user_code).toMatch(/^[A-Z]{3}-[A-Z]{3}-[A-Z]{3}$/);
    expect(typeof c.device_code).toBe("string");
    expect(c.interval).toBeGreaterThan(0);
    const poll = () =>
      call(
        emu,
        "/token",
        form({
          client_id: "cid",
          client_secret: "s",
          grant_type: "http://oauth.net/grant_type/device/1.0",
          code: String(c.device_code),
        }),
      );
    const pending = await poll();
    expect(pending.status).toBe(428);
    expect(at(pending.json, "error")).toBe("authorization_pending");

    const approve = await call(emu, "/_emulator/oauth/approve", {
      body: JSON.stringify({ userCode: c.user_code, accountId: 2 }),
    });
    expect(approve.status).toBe(200);
    const granted = await poll();
    expect(granted.status).toBe(200);
    const t = granted.json as Json;
    expect(t.token_type).toBe("Bearer");
    expect(typeof t.refresh_token).toBe("string");
    expect((await poll()).status).toBe(400); // a device code is used once

    const bearer = { authorization: `Bearer ${t.access_token}` };
    const menu = await api(emu, "account/account_menu", {}, bearer);
    expect(JSON.stringify(menu.json)).toContain("Liam Example");

    await call(emu, "/_emulator/oauth/expire", { body: "{}" });
    expect((await api(emu, "browse", LIBRARY, bearer)).status).toBe(401);

    const refreshed = await call(
      emu,
      "/token",
      form({
        client_id: "cid",
        client_secret: "s",
        grant_type: "refresh_token",
        refresh_token: String(t.refresh_token),
      }),
    );
    expect(refreshed.status).toBe(200);
    expect(at(refreshed.json, "refresh_token")).toBeUndefined();
    const again = await api(emu, "browse", LIBRARY, {
      authorization: `Bearer ${at(refreshed.json, "access_token")}`,
    });
    expect(again.status).toBe(200);
  });

  it("approves by itself after N polls when configured", async () => {
    await call(emu, "/_emulator/config", { body: JSON.stringify({ oauth: { autoApproveAfterPolls: 3 } }) });
    try {
      const c = (await call(emu, "/o/oauth2/device/code", form({ client_id: "auto" }))).json as Json;
      const poll = () =>
        call(
          emu,
          "/token",
          form({
            client_id: "auto",
            client_secret: "s",
            grant_type: "http://oauth.net/grant_type/device/1.0",
            code: String(c.device_code),
          }),
        );
      expect((await poll()).status).toBe(428);
      expect((await poll()).status).toBe(428);
      expect((await poll()).status).toBe(200);
    } finally {
      await call(emu, "/_emulator/config", {
        body: JSON.stringify({ oauth: { autoApproveAfterPolls: null } }),
      });
    }
  });

  it("refuses a token request from another client or without a secret", async () => {
    const c = (await call(emu, "/o/oauth2/device/code", form({ client_id: "one" }))).json as Json;
    const other = await call(
      emu,
      "/token",
      form({
        client_id: "two",
        client_secret: "s",
        grant_type: "http://oauth.net/grant_type/device/1.0",
        code: String(c.device_code),
      }),
    );
    expect(other.status).toBe(401);
    expect(at(other.json, "error")).toBe("unauthorized_client");
    const noSecret = await call(
      emu,
      "/token",
      form({ client_id: "one", grant_type: "refresh_token", refresh_token: "x" }),
    );
    expect(at(noSecret.json, "error")).toBe("invalid_client");
    const unknownBearer = await api(emu, "browse", LIBRARY, { authorization: "Bearer nope" });
    expect(unknownBearer.status).toBe(401);
  });
});
