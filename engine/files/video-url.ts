/** YouTube video ids in the URLs players and our own exports write, and the URL we write back. */
import { isVideoId } from "../match/entry.js";

export function watchUrl(videoId: string): string {
  return `https://music.youtube.com/watch?v=${videoId}`;
}

const YOUTUBE_HOSTS = new Set(["music.youtube.com", "www.youtube.com", "youtube.com", "m.youtube.com"]);

/** The video id of a music.youtube.com / youtube.com watch URL or a youtu.be link; null otherwise. */
export function videoIdOfUrl(text: string): string | null {
  if (!/^https?:\/\//i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  let id: string | null = null;
  if (host === "youtu.be") id = url.pathname.slice(1).split("/")[0] ?? null;
  else if (YOUTUBE_HOSTS.has(host) && url.pathname === "/watch") id = url.searchParams.get("v");
  return id !== null && isVideoId(id) ? id : null;
}
