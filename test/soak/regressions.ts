/**
 * Every seed that ever broke a promise, with what broke and the promise it broke.
 * soak-regressions-1 and -2.test.ts run each one (soak-fleet.test.ts those found on PostgreSQL); a seed
 * stays here after its fix so the break cannot come back.
 */
export interface Regression {
  seed: number;
  found: string;
  /** The docs section of the promise whose code (or the soak's own model of it) was at fault. */
  promise: string;
  /** Breaks only with the state on PostgreSQL, where a seed may draw a fleet of workers: replayed there. */
  state?: "postgres";
  /** The fleet it ran with, when it was forced (`npm run soak -- --fleet always`); else the one it draws. */
  fleet?: "always";
  /**
   * Broke only with every hostile file and surface `npm run soak` draws (a process run the notify
   * surface makes, say): replayed with them all, since with the light ones and no surface the seed
   * draws another story. Else replayed light, with no surface.
   */
  attacks?: "all";
}

export const REGRESSIONS: readonly Regression[] = [
  {
    seed: 8,
    found:
      "DISLIKE recipe under `gated` faults: rate_song answered HTTP 200 without a status counted as confirmed; run converged, songs not disliked",
    promise: "docs/ENGINE.md#apply-and-the-journal",
  },
  {
    seed: 12,
    found:
      "state lost, then the person renamed the owned playlist: the marker search compares titles only, so the next sync created a second playlist with the recipe's marker",
    promise: "docs/ENGINE.md#ownership",
  },
  {
    seed: 26,
    found:
      "one `failed-status` answer to a one-id add (batch_size 1) quarantined an available song for 7 days; the mirror then stays short of it",
    promise: "docs/ENGINE.md#apply-and-the-journal",
  },
  {
    seed: 72,
    found:
      "through the echo proxy, after a rename: a run reported no_changes while the playlist's title was not the recipe's",
    promise: "docs/ENGINE.md#apply-and-the-journal",
  },
  {
    seed: 90,
    found:
      "credentials echoed as \\u00xx escapes inside a JSON string reached the plan: the body is scrubbed as raw text, where such a spelling stands escaped once more",
    promise: "docs/ENGINE.md#credentials",
  },
  {
    seed: 99,
    found:
      "a truncated source playlist read (count 10, 5 rows) made a new mirror of 5 and the run said converged",
    promise: "docs/ENGINE.md#apply-and-the-journal",
  },
  {
    seed: 178,
    found:
      "soak model: a DISLIKE the person set by hand was expected to be removed by a DISLIKE mirror, which cannot read dislikes (and keeps the person's ratings)",
    promise: "docs/ENGINE.md#ratings",
  },
  {
    seed: 203,
    found: "as seed 90: echoed \\u00xx spellings of the cookie in the plan",
    promise: "docs/ENGINE.md#credentials",
  },
  {
    seed: 313,
    found:
      "soak model: the person deleted a sync recipe's playlist, which also leaves the library; an append `library: playlists` recipe was blamed for removing it",
    promise: "docs/ENGINE.md#apply-and-the-journal",
  },
  {
    seed: 403,
    found:
      "soak model: after a rename by hand, a run whose target read looked truncated (guard target_truncated: nothing written, the title edit included) was judged for its title",
    promise: "docs/ENGINE.md#apply-and-the-journal",
  },
  {
    seed: 265,
    found:
      "soak model: under failed-status faults the service refused one id twice in a row, which the engine's documented rule quarantines; the soak called it false",
    promise: "docs/ENGINE.md#apply-and-the-journal",
  },
  {
    seed: 387,
    found:
      "a refused remove verified by a target read cut short (truncate): the rows looked gone, the remove was reported confirmed while they were still there",
    promise: "docs/ENGINE.md#apply-and-the-journal",
  },
  {
    seed: 390,
    found:
      "soak model: after a lost state database a DISLIKE mirror was expected to take back dislikes it can no longer know of (the service lists none)",
    promise: "docs/ENGINE.md#ratings",
  },
  {
    seed: 115,
    found:
      "soak model: a fault-free real-process sync held removals back under max_removals; `sync --json` named no guards, so the soak judged the held rows as left behind (the JSON now lists the plan's guards and notes)",
    promise: "docs/ENGINE.md#guards",
  },
  {
    seed: 55,
    found:
      "soak model: the file attack that points a recipe outside the project made the loader refuse the recipe, which ended the seed instead of being the attack's to judge",
    promise: "docs/ENGINE.md#bad-input",
  },
  {
    seed: 60,
    found:
      "soak harness: the fleet's recipe builder came from daemon-harness.ts, whose import lifts the once-a-minute schedule rule for the whole process; validate, plan and the daemon then took a 30-second schedule",
    promise: "docs/ENGINE.md#workers",
  },
  {
    seed: 196,
    found:
      "soak model: a fault on the target's read ended the run before it reached its attacked file; the judge wanted the error to name the file though nothing was read, searched or written",
    promise: "docs/ENGINE.md#bad-input",
  },
  {
    seed: 267,
    found:
      "soak model: songs refused through the echo proxy were quarantined account-wide; a fleet recipe of that account named two, its fault-free run skipped them saying so, and the fleet's check wanted all 14",
    promise: "docs/ENGINE.md#limits-of-the-service",
    state: "postgres",
  },
  {
    seed: 401,
    found:
      "`enqueue --all` failed: on a machine under a load of 18, the state's opening session idled past the database's 446 ms idle_session_timeout before its first query, and opening (unlike every later call) was not tried again",
    promise: "docs/ENGINE.md#workers",
    state: "postgres",
    fleet: "always",
  },
  {
    seed: 1229,
    found:
      "an id quarantined account-wide (another recipe's adds refused through the echo proxy) was taken out of a mirror that held it: removed as not desired, the run said converged with the song gone",
    promise: "docs/ENGINE.md#ownership",
  },
  {
    seed: 1247,
    found:
      "soak model: a `sync --json` run skipped ids quarantined by an earlier run; its report named only the apply's quarantines, so the soak excused none (the JSON now lists the plan's skipped items with their reasons)",
    promise: "docs/ENGINE.md#limits-of-the-service",
    attacks: "all",
  },
  {
    seed: 1279,
    found:
      "a recipe's file source was a hostile (sparse) file, but the run read the target first and met an injected service fault, so the error named the service, not the file (file sources are now read before any request)",
    promise: "docs/ENGINE.md#bad-input",
    attacks: "all",
  },
  {
    seed: 1402,
    found:
      "a LIKE recipe liked a song the person had disliked: the album page its rating is read from came back cut short (a truncate fault), without the song, and an unread rating was taken as unknown",
    promise: "docs/ENGINE.md#ratings",
  },
  {
    seed: 1689,
    found:
      "state lost, then `plan -o` and `apply`: the saved plan's playlist, found by its marker, was not recorded as owned; the next run looked for it by marker again, the library's listing came back cut short the same way twice (truncate faults) without the playlist (renamed by hand), and a second playlist was made",
    promise: "docs/ENGINE.md#ownership",
    state: "postgres",
    fleet: "always",
    attacks: "all",
  },
  {
    seed: 1729,
    found:
      "the scheduler check cleared the scheduled fleet recipe's next run and waited for a scheduler to plan it again, but the seed's own run 2 had suspended its account (an m3u whose links loop): the scheduler rightly skips a suspended account's recipes, so nothing was planned (the soak's model now leaves a suspended recipe out of that check)",
    promise: "docs/ENGINE.md#workers",
    state: "postgres",
    fleet: "always",
    attacks: "all",
  },
  {
    seed: 2049,
    found:
      "a DISLIKE append recipe's first run met a liked list cut short (a truncate fault): every song was skipped, its rating unread, and the run said no_changes with none disliked (a run that skips songs for a rating read cut short is now partial)",
    promise: "docs/ENGINE.md#ratings",
  },
  {
    seed: 2057,
    found:
      "the status page's undo answered 500: its read of the playlist met a throttling 400 (which the client does not retry), and that failure, met before the undo's run began, escaped the action as an internal error (it now answers 409 with the reason, as a failed run does, having written nothing)",
    promise: "docs/daemon.md#the-status-page",
    attacks: "all",
  },
  {
    seed: 2415,
    found:
      "state lost, then `apply` killed after the create was sent; the person removed three of the new playlist's rows and the recipe (sync) dropped four more: reconciling the create stopped claiming rows at the first id the person had removed, so the four after it stayed the person's and a run said converged with them there (every row an interrupted write left is now claimed)",
    promise: "docs/ENGINE.md#reconciling-an-interrupted-run",
    state: "postgres",
    fleet: "always",
    attacks: "all",
  },
  {
    seed: 2704,
    found:
      "the soak's model, not the engine: state lost, then the person unsaved an episode the engine had saved; the next run saved it again (it could not know it had), and the person unsaved it again: the engine rightly kept it out (on_drift: adopt), but the model still took the episode for one of unknown owner and wanted it back (a row of unknown owner now leaves the model once removed)",
    promise: "docs/ENGINE.md#ownership",
  },
  {
    seed: 2427,
    found:
      "a `sync` of library songs read its target cut short (a truncate fault: 12 of 62 songs, and a library list has no count), so two songs already there looked absent: it planned their add, and through the echo proxy, which refused it, a read-back found them there and the run said converged; it had added nothing (and its undo record had them out). An add to a list without a count is now believed only when a second read of the target agrees",
    promise: "docs/ENGINE.md#guards",
    state: "postgres",
    fleet: "always",
    attacks: "all",
  },
];
