/**
 * The status page's guards as pure functions: which Host a bind answers to (a wildcard
 * bind's included, which the server tests do not listen on), where a write comes from, the names
 * --http-hosts takes, the token's start check, and limits whose memory stays bounded.
 */
import { describe, expect, it } from "vitest";
import {
  hostAllowed,
  hostPolicy,
  parseHost,
  parseHostList,
  writeSource,
} from "../../../engine/web/host-check.js";
import { RateLimit, SignInLimit } from "../../../engine/web/rate-limit.js";
import { startRefusal } from "../../../engine/web/server.js";

const none = () => [];

describe("the Host check", () => {
  it("a loopback bind: its address and the loopback names, with its port only", () => {
    const p = hostPolicy("127.0.0.1", 8484, []);
    for (const h of ["127.0.0.1:8484", "localhost:8484", "LocalHost:8484", "[::1]:8484", "[0:0::1]:8484"])
      expect(hostAllowed(p, h, none), h).toBe(true);
    for (const h of [
      undefined,
      "",
      "127.0.0.1",
      "127.0.0.1:8485",
      "localhost:80",
      "rebind.attacker.test:8484",
      "localhost.:8484",
      "user@127.0.0.1:8484",
      "127.0.0.1:8484/x",
      "127.0.0.1:99999",
    ])
      expect(hostAllowed(p, h, none), String(h)).toBe(false);
    // Port 80 is the one a browser leaves out.
    expect(hostAllowed(hostPolicy("127.0.0.1", 80, []), "localhost", none)).toBe(true);
  });

  it("a wildcard bind: the machine's addresses (asked each time) with its port, and the loopback names", () => {
    let addresses = ["127.0.0.1", "192.0.2.7", "2001:db8::7"];
    for (const bind of ["0.0.0.0", "::"]) {
      const p = hostPolicy(bind, 8484, []);
      for (const h of [
        "192.0.2.7:8484",
        "[2001:db8::7]:8484",
        "localhost:8484",
        `${bind.includes(":") ? "[::]" : bind}:8484`,
      ])
        expect(
          hostAllowed(p, h, () => addresses),
          h,
        ).toBe(true);
      for (const h of ["192.0.2.8:8484", "192.0.2.7:8485", "rebind.attacker.test:8484"])
        expect(
          hostAllowed(p, h, () => addresses),
          h,
        ).toBe(false);
    }
    addresses = ["192.0.2.8"];
    expect(hostAllowed(hostPolicy("0.0.0.0", 8484, []), "192.0.2.8:8484", () => addresses)).toBe(true);
    // Not on a specific address: there the machine's other addresses do not reach the page.
    expect(hostAllowed(hostPolicy("192.0.2.7", 8484, []), "192.0.2.8:8484", () => addresses)).toBe(false);
    expect(hostAllowed(hostPolicy("192.0.2.7", 8484, []), "localhost:8484", () => addresses)).toBe(false);
  });

  it("names given: without a port any port, with one that port; a bad one is named", () => {
    const p = hostPolicy("127.0.0.1", 8484, parseHostList("Music.Example.org, nas.lan:9000,"));
    expect(hostAllowed(p, "music.example.org", none)).toBe(true);
    expect(hostAllowed(p, "music.example.org:8443", none)).toBe(true);
    expect(hostAllowed(p, "nas.lan:9000", none)).toBe(true);
    expect(hostAllowed(p, "nas.lan", none)).toBe(false);
    expect(hostAllowed(p, "evil.music.example.org", none)).toBe(false);
    expect(() => parseHostList("ok.lan, http://x.lan/")).toThrow('"http://x.lan/" is not a host name');
    expect(parseHost("[::1]")).toEqual({ hostname: "[::1]", port: null });
  });
});

describe("where a write comes from", () => {
  const p = hostPolicy("127.0.0.1", 8484, parseHostList("music.example.org"));
  it("its Origin, or lacking one its Referer; null, another site or scheme is another site", () => {
    expect(writeSource(p, "http://127.0.0.1:8484", undefined, none)).toBe("ours");
    expect(writeSource(p, "http://localhost:8484", "http://attacker.test/", none)).toBe("ours");
    expect(writeSource(p, "https://music.example.org", undefined, none)).toBe("ours");
    expect(writeSource(p, undefined, "http://127.0.0.1:8484/actions/undo/3", none)).toBe("ours");
    expect(writeSource(p, undefined, undefined, none)).toBe("none");
    for (const origin of [
      "null",
      "http://attacker.test:8484",
      "http://127.0.0.1:8485",
      "http://127.0.0.1",
      "file://127.0.0.1:8484",
      "not a url",
    ])
      expect(writeSource(p, origin, "http://127.0.0.1:8484/", none), origin).toBe("other");
    expect(writeSource(p, undefined, "http://attacker.test/page", none)).toBe("other");
  });
});

describe("the token at start", () => {
  it("refuses one under 16 characters or with a space, on any address, without quoting it", () => {
    for (const token of ["Q7", "fifteen-chars!!", "sixteen or  more", "tab\tseparated-token-value"]) {
      const why = startRefusal("127.0.0.1", token);
      expect(why, token).toContain("access token");
      expect(why).not.toContain(token);
    }
    expect(startRefusal("0.0.0.0", "sixteen-chars!!!")).toBeNull();
    expect(startRefusal("127.0.0.1", null)).toBeNull();
    expect(startRefusal("0.0.0.0", null)).toContain("needs an access token");
  });
});

describe("limits", () => {
  it("a key waits once at its limit, until its oldest count is a minute old", () => {
    let now = 1_000_000;
    const limit = new RateLimit(3, () => now);
    for (let i = 0; i < 3; i++) expect(limit.take("k")).toBeNull();
    expect(limit.take("k")).toBe(60);
    now += 30_000;
    expect(limit.wait("k")).toBe(30);
    expect(limit.wait("other")).toBeNull();
    now += 30_001;
    expect(limit.take("k")).toBeNull();
  });

  it("keeps at most maxKeys keys and its limit's count of times a key, however many ask", () => {
    const now = 1_000_000;
    const limit = new RateLimit(2, () => now, 100);
    for (let i = 0; i < 10_000; i++) limit.record(`address-${i}`);
    for (let i = 0; i < 1000; i++) limit.record("busy");
    const times = (limit as unknown as { times: Map<string, number[]> }).times;
    expect(times.size).toBeLessThanOrEqual(100);
    expect(times.get("busy")).toHaveLength(2);
    // The newest keys are the ones kept.
    expect(limit.wait("busy")).not.toBeNull();
    expect(limit.wait("address-9999")).toBeNull();
    expect(times.has("address-9999")).toBe(true);
  });

  it("sign-ins: per address, and all addresses together", () => {
    let now = 0;
    const limit = new SignInLimit(() => now, { perAddress: 2, overall: 3 });
    limit.failed("a");
    limit.failed("a");
    expect(limit.wait("a")).toBe(60);
    expect(limit.wait("b")).toBeNull();
    limit.failed("b");
    expect(limit.wait("b")).toBe(60);
    expect(limit.wait("c")).toBe(60);
    now = 60_001;
    expect(limit.wait("a")).toBeNull();
  });
});
