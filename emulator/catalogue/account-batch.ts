/**
 * Accounts made on demand (`POST /_emulator/accounts`) for benchmarks that sync many accounts at
 * once: each a login of its own browser with a small library — playlists it owns, filled with
 * catalogue songs, and liked songs. Each account draws from a generator of its own, keyed by the
 * batch's seed and the account's id, so the same seed on the same ids makes the same accounts and
 * a second batch with the same seed still gets cookies of its own.
 */
import { hash32, Rng } from "../random.js";
import type { CatalogueWriter } from "../store/seed.js";
import { FIRST_NAMES, LAST_NAMES } from "../words.js";
import { writeLogin } from "./accounts.js";
import { CATALOGUE_EPOCH_MS } from "./constants.js";
import { title } from "./names.js";
import { addItems, stride } from "./playlists.js";

export interface AccountBatch {
  /** How many accounts to make. */
  count: number;
  seed: number;
  /** Playlists per account. */
  playlists: number;
  /** Songs per playlist. */
  songs: number;
  /** Liked songs per account. */
  liked: number;
}

/** Each field's range, both ends included (a control request outside them is refused). */
export const ACCOUNT_BATCH_LIMITS: Record<keyof AccountBatch, readonly [number, number]> = {
  count: [1, 1000],
  seed: [0, 0xffff_ffff],
  playlists: [0, 20],
  songs: [0, 500],
  liked: [0, 500],
};

/** Playlist rows and likes a batch may write in all. */
export const ACCOUNT_BATCH_MAX_ROWS = 500_000;

export const ACCOUNT_BATCH_DEFAULTS: Omit<AccountBatch, "count"> = {
  seed: 1,
  playlists: 3,
  songs: 10,
  liked: 10,
};

/** A made account, as the control endpoint answers it. */
export interface BatchAccount {
  id: number;
  name: string;
}

/**
 * Writes `batch.count` logins numbered from `firstId`, with their libraries drawn from `songPool`
 * (video ids of catalogue songs). The caller runs it in one transaction.
 */
export function writeAccountBatch(
  write: CatalogueWriter,
  batch: AccountBatch,
  firstId: number,
  songPool: readonly string[],
): BatchAccount[] {
  const made: BatchAccount[] = [];
  for (let id = firstId; id < firstId + batch.count; id++) {
    const r = new Rng(hash32(`account-batch:${batch.seed}:${id}`));
    const name = `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
    // No handle: the profiles search keeps finding only the seeded accounts.
    writeLogin(write, r, { id, email: `user${id}@example.com`, name, handle: null, authUser: 0 }, false);
    if (songPool.length > 0) writeLibrary(write, r, id, name, batch, songPool);
    made.push({ id, name });
  }
  return made;
}

/** One account's playlists (private and public in turn) and liked songs, a minute apart. */
function writeLibrary(
  write: CatalogueWriter,
  r: Rng,
  accountId: number,
  authorName: string,
  batch: AccountBatch,
  songPool: readonly string[],
): void {
  let t = CATALOGUE_EPOCH_MS;
  const tick = () => (t += 60_000);
  for (let i = 0; i < batch.playlists; i++) {
    const playlistId = "PL" + r.chars(32);
    const name = title(r, 2);
    write.playlist({
      playlistId,
      title: name,
      description: "",
      ownerAccountId: accountId,
      authorName,
      authorChannelId: null,
      privacy: i % 2 === 0 ? "PRIVATE" : "PUBLIC",
      kind: "user",
      addToTop: false,
      views: 0,
      createdAt: tick(),
      searchText: name.toLowerCase(),
    });
    addItems(write, r, playlistId, stride(r, songPool, batch.songs));
  }
  // The rating writer skips a song drawn twice, so an account may like a few fewer.
  for (const targetId of stride(r, songPool, batch.liked)) {
    write.rating({ accountId, kind: "song", targetId, rating: "LIKE", updatedAt: tick() });
  }
}
