/**
 * The attacks on the surfaces in the soak (the status page, approvals, files, workers, notifications), drawn per seed: an action posted through the status page
 * after hostile requests (page.ts), recipes that hold big removals for approval (approval.ts), file
 * sources the soak writes itself and then swaps for a link, a pipe, a huge file, a folder or a path
 * outside the project (file-attacks.ts), and notification targets that are all down
 * (notify-down.ts). Pure.
 *
 * Drawn from a third generator of the seed, apart from the main one and from attacks.ts's: the main
 * story (recipes, edits, faults, kills) of every seed stays what it was, and a seed that draws none
 * of these runs exactly as before.
 */
import { chance, int, pick, type Random, rng, shuffled } from "./generate.js";

export const PAGE_ACTIONS = ["run", "plan", "undo", "resume", "approve"] as const;
export type PageAction = (typeof PAGE_ACTIONS)[number];

export const FILE_ATTACKS = [
  "fifo",
  "fifo-link",
  "dev-zero",
  "sparse",
  "directory",
  "loop",
  "outside",
] as const;
export type FileAttackKind = (typeof FILE_ATTACKS)[number];

export const FILE_FORMATS = ["csv", "m3u", "json"] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/** The thresholds of `policy.require_approval` a recipe gets. */
export interface ApprovalRule {
  removals?: number;
  removals_percent?: number;
}

/** What the draw needs to know of one recipe (its index in the seed's list). */
export interface RecipeShape {
  /** A static list of songs to a playlist or likes: the soak can write it as a file of its own. */
  fileable: boolean;
}

export interface Surfaces {
  /** One in-process run made by posting an action through the status page. */
  page: { run: number; action: PageAction } | null;
  /** Recipe index → its require_approval thresholds. */
  approval: Map<number, ApprovalRule>;
  /**
   * In a seed with thresholds, one in-process run made as `plan -o` then `apply` processes instead,
   * so that a saved plan that holds a recipe meets `apply` in every such seed, not only in the few
   * whose main story runs the real process.
   */
  savedPlan: { run: number } | null;
  /** Recipe index → the format of the file its songs are read from. */
  files: Map<number, FileFormat>;
  /** The file of recipe `recipe` swapped for something hostile before run `run` (in process). */
  fileAttack: { run: number; recipe: number; kind: FileAttackKind } | null;
  /** One run made by `musicsync sync` as a process on a project whose notify targets are all down. */
  notify: { run: number } | null;
}

export type SurfaceName = "page" | "approval" | "files" | "notify";

export interface SurfaceOptions {
  /** `all`, `light` (no /dev/zero: it is only safe in a process of its own), `none`. */
  level: "all" | "light" | "none";
  /**
   * Surfaces switched on (or off) whatever the draw says; the draw is made all the same. `files`
   * forced on also attacks one of them.
   */
  force?: Partial<Record<SurfaceName, boolean>>;
}

/** The seed's third generator (see the header comment). */
export const surfaceRng = (seed: number): Random => rng(seed + 0x22e2);

function approvalRule(r: Random): ApprovalRule {
  const roll = r();
  // Small thresholds, so that a plan with a few removals is held now and then.
  if (roll < 0.4) return { removals: int(r, 0, 2) };
  if (roll < 0.8) return { removals_percent: int(r, 5, 30) };
  return { removals: int(r, 1, 3), removals_percent: int(r, 10, 40) };
}

/**
 * Runs the file attack and the page may take: in process (the real process refuses the folder as a
 * whole when the hostile recipe file is in it), and not the one the hostile file sits beside.
 */
function freeRuns(runs: number, processRuns: ReadonlySet<number>, hostileRun: number | null): number[] {
  return Array.from({ length: runs }, (_, i) => i + 1).filter((n) => !processRuns.has(n) && n !== hostileRun);
}

export function surfacesOf(
  seed: number,
  runs: number,
  processRuns: ReadonlySet<number>,
  hostileRun: number | null,
  recipes: readonly RecipeShape[],
  options: SurfaceOptions,
): Surfaces {
  const r = surfaceRng(seed);
  const on = (name: SurfaceName, p: number) => {
    const drawn = chance(r, p);
    return options.level !== "none" && (options.force?.[name] ?? drawn);
  };
  const wantPage = on("page", 1 / 4);
  const wantApproval = on("approval", 1 / 4);
  const wantFiles = on("files", 1 / 4);
  const wantNotify = on("notify", 1 / 5);
  const free = shuffled(r, freeRuns(runs, processRuns, hostileRun));

  const approval = new Map<number, ApprovalRule>();
  recipes.forEach((_, i) => {
    const rule = approvalRule(r);
    if (wantApproval && (chance(r, 0.7) || i === 0)) approval.set(i, rule);
  });

  const files = new Map<number, FileFormat>();
  recipes.forEach((shape, i) => {
    const format = pick(r, FILE_FORMATS);
    if (wantFiles && shape.fileable) files.set(i, format);
  });
  const kinds = FILE_ATTACKS.filter((k) => options.level === "all" || k !== "dev-zero");
  const attackKind = pick(r, kinds);
  const attackRecipe = r();
  // Most seeds with files attack one of them; the others only read and edit them.
  const attacks = chance(r, 0.8);
  const attacked = [...files.keys()];
  const attackRun = attacked.length > 0 && (options.force?.files ?? attacks) ? free.shift() : undefined;
  const fileAttack =
    attackRun !== undefined
      ? { run: attackRun, recipe: attacked[Math.floor(attackRecipe * attacked.length)]!, kind: attackKind }
      : null;

  const pageAction = pick(r, ["run", "run", "plan", "undo", "resume", "approve", "approve"] as const);
  const pageRun = wantPage ? free.shift() : undefined;
  const page = pageRun !== undefined ? { run: pageRun, action: pageAction } : null;
  // The latest run left: by then the person's edits have given plans removals, and a plan held
  // once stays held (with more) until approved.
  const savedRun = approval.size > 0 && free.length > 0 ? Math.max(...free) : undefined;
  const savedPlan = savedRun !== undefined ? { run: savedRun } : null;

  // Any run but the hostile file's: a main-story process run keeps its kill, an in-process one
  // becomes a plain `sync` process.
  const notifyRuns = Array.from({ length: runs }, (_, i) => i + 1).filter(
    (n) => n !== hostileRun && n !== page?.run && n !== fileAttack?.run && n !== savedPlan?.run,
  );
  // Run 1 most often: it always has writes to tell of (a later run may have nothing to say).
  const first = chance(r, 0.6);
  const anyRun = notifyRuns.length > 0 ? pick(r, notifyRuns) : null;
  const notifyRun = first && notifyRuns.includes(1) ? 1 : anyRun;
  const notify = wantNotify && notifyRun !== null ? { run: notifyRun } : null;
  return { page, approval, savedPlan, files, fileAttack, notify };
}

/** The seed line's words for what the seed had, e.g. `page undo@3, approval 2, file fifo@2`. */
export function describeSurfaces(s: Surfaces): string[] {
  return [
    ...(s.page ? [`page ${s.page.action}@${s.page.run}`] : []),
    ...(s.approval.size > 0
      ? [`approval ${s.approval.size}${s.savedPlan ? ` apply@${s.savedPlan.run}` : ""}`]
      : []),
    ...(s.files.size > 0 ? [`files ${[...s.files.values()].join(",")}`] : []),
    ...(s.fileAttack ? [`file ${s.fileAttack.kind}@${s.fileAttack.run}`] : []),
    ...(s.notify ? [`notify down@${s.notify.run}`] : []),
  ];
}
