/**
 * Which names the page answers to, and which sites may post to it. Against DNS rebinding: a web
 * page whose domain is re-pointed at 127.0.0.1 reaches the page with that domain in its Host header,
 * and posts with that domain in its Origin; so a request must name the address the page listens on
 * (a loopback name for it, the machine's own addresses on a wildcard bind, or a name the person
 * gave with --http-hosts), and a write must come from one of those. Pure: the machine's addresses
 * are handed in.
 */
import { isIP } from "node:net";

/** A host and a port; a port of null (a name given without one) matches any port. */
export interface HostName {
  hostname: string;
  port: number | null;
}

export interface HostPolicy {
  names: readonly HostName[];
  /** On a wildcard bind (0.0.0.0, ::): the machine's own addresses with the page's port too. */
  wildcardPort: number | null;
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));
}

function isWildcard(host: string): boolean {
  return isIP(host) !== 0 && /^[0:.]+$/.test(host);
}

/** An address as a URL's hostname writes it: an IPv6 one in brackets. */
function asHostname(address: string): string {
  return isIP(address) === 6 ? `[${address}]` : address.toLowerCase();
}

// A name or an IPv4 address, or an IPv6 one in brackets, then maybe a port: nothing a URL could
// read as a user, a path or a query (`evil@127.0.0.1`).
const HOST_SHAPE = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/**
 * `name`, `name:port`, `1.2.3.4:port`, `[::1]:port` → its hostname (as a URL normalises it:
 * lowercased, IPv4 in dotted form) and its port (null when none is written); null when not a host.
 */
export function parseHost(text: string): HostName | null {
  const m = HOST_SHAPE.exec(text);
  if (!m) return null;
  try {
    const url = new URL(`http://${text}`);
    return { hostname: url.hostname, port: m[1] === undefined ? null : Number(m[1]) };
  } catch {
    return null;
  }
}

/** The names `--http-hosts` (or MUSICSYNC_HTTP_HOSTS) gives, comma-separated; throws naming a bad one. */
export function parseHostList(text: string): HostName[] {
  const out: HostName[] = [];
  for (const item of text.split(",").map((s) => s.trim())) {
    if (item === "") continue;
    const host = parseHost(item);
    if (!host)
      throw new Error(
        `--http-hosts (or MUSICSYNC_HTTP_HOSTS): "${item}" is not a host name (name or name:port)`,
      );
    out.push(host);
  }
  return out;
}

/** What a page bound to `bind:port` answers to, besides the names given. */
export function hostPolicy(bind: string, port: number, given: readonly HostName[]): HostPolicy {
  const names: HostName[] = [{ hostname: asHostname(bind), port }, ...given];
  if (isLoopback(bind) || isWildcard(bind))
    for (const name of ["localhost", "127.0.0.1", "[::1]"]) names.push({ hostname: name, port });
  return { names, wildcardPort: isWildcard(bind) ? port : null };
}

function accepts(policy: HostPolicy, host: HostName, machine: () => readonly string[]): boolean {
  if (policy.names.some((n) => n.hostname === host.hostname && (n.port === null || n.port === host.port)))
    return true;
  return (
    policy.wildcardPort !== null &&
    host.port === policy.wildcardPort &&
    machine().some((address) => asHostname(address) === host.hostname)
  );
}

/** Whether a request's Host header names this page (no port: 80, as a browser leaves it out). */
export function hostAllowed(
  policy: HostPolicy,
  header: string | undefined,
  machine: () => readonly string[],
): boolean {
  const host = header === undefined ? null : parseHost(header);
  return host !== null && accepts(policy, { hostname: host.hostname, port: host.port ?? 80 }, machine);
}

/**
 * Where a write comes from: its Origin header, or lacking one its Referer's origin. `none` when it
 * has neither (not a browser: every browser sends Origin with a POST); `other` for another site,
 * an opaque origin ("null") or anything unreadable.
 */
export function writeSource(
  policy: HostPolicy,
  origin: string | undefined,
  referer: string | undefined,
  machine: () => readonly string[],
): "ours" | "other" | "none" {
  const from = origin ?? referer;
  if (from === undefined) return "none";
  let url: URL;
  try {
    url = new URL(from);
  } catch {
    return "other";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "other";
  const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return accepts(policy, { hostname: url.hostname, port }, machine) ? "ours" : "other";
}
