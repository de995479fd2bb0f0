/** The seeded logins, their brand account, and a starting library for the first login. */
import { ids, type Rng } from "../random.js";
import type { CatalogueWriter } from "../store/seed.js";
import { CATALOGUE_EPOCH_MS } from "./constants.js";
import { addItems } from "./playlists.js";

export const SEEDED_ACCOUNTS = [
  { id: 1, email: "emma@example.com", name: "Emma Example", handle: "@emmaexample", authUser: 0 },
  { id: 2, email: "liam@example.com", name: "Liam Example", handle: "@liamexample", authUser: 1 },
  { id: 3, email: "noor@example.com", name: "Noor Example", handle: null, authUser: 0 },
] as const;

/** What the first login's library is drawn from. */
export interface LibraryPools {
  songIds: readonly string[];
  /** Editorial playlists, in the order made. */
  curatedIds: readonly string[];
  artistChannels: readonly string[];
}

/** Seeded library entries are a minute apart, in the order they are made. */
type Clock = () => number;

/** Writes the accounts and the first login's library; returns how many accounts it made. */
export function seedAccounts(write: CatalogueWriter, r: Rng, pools: LibraryPools): number {
  seedLogins(write, r);
  let t = CATALOGUE_EPOCH_MS;
  const tick: Clock = () => {
    t += 60_000;
    return t;
  };
  seedLibrary(write, pools, tick);
  seedOwnedPlaylists(write, r, pools.songIds, tick);
  seedSavedPlaylists(write, pools, tick);
  return SEEDED_ACCOUNTS.length + 1;
}

/** What a seeded login is given; its channel and cookie are drawn. */
export interface Login {
  id: number;
  email: string;
  name: string;
  handle: string | null;
  authUser: number;
}

/** A login's row, its channel id and SAPISID cookie drawn from `r` in that order. */
export function writeLogin(write: CatalogueWriter, r: Rng, a: Login, premium: boolean): void {
  write.account({
    id: a.id,
    email: a.email,
    name: a.name,
    handle: a.handle,
    channelId: ids.channel(r),
    sapisid: ids.sapisid(r),
    parentId: null,
    pageId: null,
    authUser: a.authUser,
    premium,
  });
}

/** The three logins and, under the first, a brand account (id 4) with its page id. */
function seedLogins(write: CatalogueWriter, r: Rng): void {
  for (const a of SEEDED_ACCOUNTS) writeLogin(write, r, a, false);
  write.account({
    id: 4,
    email: "emma@example.com",
    name: "Emma's Label",
    handle: "@emmaslabel",
    channelId: ids.channel(r),
    // A brand account has no cookie of its own: it is reached through its login's.
    sapisid: "",
    parentId: 1,
    pageId: ids.pageId(r),
    authUser: 0,
    premium: false,
  });
}

/**
 * Library songs, liked songs, subscriptions and recent plays, spread over the pools by fixed
 * strides. A small catalogue hits the same song twice; the writer skips such duplicates.
 */
function seedLibrary(write: CatalogueWriter, pools: LibraryPools, tick: Clock): void {
  const songs = pools.songIds;
  const accountId = 1;
  for (let i = 0; i < Math.min(60, songs.length); i++) {
    write.libraryItem({
      accountId,
      kind: "song",
      targetId: songs[(i * 13) % songs.length]!,
      addedAt: tick(),
    });
  }
  for (let i = 0; i < Math.min(30, songs.length); i++) {
    const targetId = songs[(i * 17 + 5) % songs.length]!;
    write.rating({ accountId, kind: "song", targetId, rating: "LIKE", updatedAt: tick() });
  }
  const channels = pools.artistChannels;
  for (let i = 0; i < Math.min(5, channels.length); i++) {
    const targetId = channels[(i * 3) % channels.length]!;
    write.libraryItem({ accountId, kind: "subscription", targetId, addedAt: tick() });
  }
  // Plays go back from the epoch nine hours apart, so that they spread over several days.
  for (let i = 0; i < Math.min(20, songs.length); i++) {
    write.play({
      accountId,
      videoId: songs[(i * 7 + 3) % songs.length]!,
      playedAt: CATALOGUE_EPOCH_MS - i * 3_600_000 * 9,
    });
  }
}

/** Two playlists the first login owns: a private one long enough to page, and a short public one. */
function seedOwnedPlaylists(write: CatalogueWriter, r: Rng, songs: readonly string[], tick: Clock): void {
  const owned = [
    { title: "Road Trip", privacy: "PRIVATE", count: 120 },
    { title: "Morning Coffee", privacy: "PUBLIC", count: 25 },
  ];
  for (const p of owned) {
    const playlistId = "PL" + r.chars(32);
    write.playlist({
      playlistId,
      title: p.title,
      description: "",
      ownerAccountId: 1,
      authorName: "Emma Example",
      authorChannelId: null,
      privacy: p.privacy,
      kind: "user",
      addToTop: false,
      views: 0,
      createdAt: tick(),
      searchText: p.title.toLowerCase(),
    });
    const videoIds = Array.from({ length: p.count }, (_, i) => songs[(i * 31 + p.count) % songs.length]!);
    addItems(write, r, playlistId, videoIds);
  }
}

/** A saved editorial playlist, three saved albums and two saved podcasts. */
function seedSavedPlaylists(write: CatalogueWriter, pools: LibraryPools, tick: Clock): void {
  const accountId = 1;
  const firstCurated = pools.curatedIds[0];
  if (firstCurated)
    write.libraryItem({ accountId, kind: "playlist", targetId: firstCurated, addedAt: tick() });
  // Saved albums are albums whose playlist the account rated LIKE.
  for (const targetId of write.firstAlbumPlaylists(3)) {
    write.rating({ accountId, kind: "playlist", targetId, rating: "LIKE", updatedAt: tick() });
  }
  // Saved podcasts (a saved podcast is a liked podcast playlist), so that the "New Episodes" auto
  // playlist (RDPN) has the latest episodes of each.
  for (const targetId of write.firstPodcastPlaylists(2)) {
    write.rating({ accountId, kind: "playlist", targetId, rating: "LIKE", updatedAt: tick() });
  }
}
