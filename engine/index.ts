export {
  type ActionEvent,
  type ActionOutcome,
  type ApplyContext,
  type ApplyResult,
  applyPlan,
  QUARANTINE_MS,
  QUARANTINE_TARGET,
} from "./apply/apply.js";
export type { EngineClient, WriteClient } from "./apply/client.js";
export {
  type Clock,
  DEFAULT_PACING,
  isRetryable,
  isThrottle400,
  Pacer,
  type PacingOptions,
  systemClock,
} from "./apply/pacer.js";
export {
  type AttemptEvent,
  Daemon,
  type DaemonDeps,
  type DaemonOptions,
  DEFAULT_DAEMON_OPTIONS,
} from "./daemon/daemon.js";
export { createDaemonLogger } from "./daemon/log.js";
export { InterruptedError, Shutdown } from "./daemon/shutdown.js";
// The file formats and CSV columns a recipe's `file` source names are the files reader's.
export { type CsvColumns, FILE_FORMATS, type FileFormat } from "./files/types.js";
export { combine } from "./pipeline/combine.js";
export { isoWeek, parseServiceDate } from "./pipeline/dates.js";
export { expand } from "./pipeline/expand.js";
export { filterItems } from "./pipeline/filter.js";
export { type PipelineResult, runPipeline } from "./pipeline/run.js";
export { dedupe, exclude, limit, normaliseTitle, shuffle, since, sortItems } from "./pipeline/steps.js";
export type { PipelineContext, SkippedItem, StepResult } from "./pipeline/types.js";
export { buildDesired, type DesiredContext, planPolicy } from "./plan/desired.js";
export { targetFingerprint } from "./plan/fingerprint.js";
export { longestIncreasingSubsequence } from "./plan/lis.js";
export { ownedFor, stateTargetKey } from "./plan/owned.js";
export { describeOwned, markerRecipe, ownershipMarker } from "./plan/ownership.js";
export { plan, targetKey } from "./plan/plan.js";
export * from "./plan/types.js";
export { DEFAULT_POLICY, DEFAULT_RADIO_LIMIT } from "./recipe/defaults.js";
export { type Environment, expandReferences } from "./recipe/env.js";
export { formatIssue, type RecipeIssue, sortIssues } from "./recipe/errors.js";
export {
  loadProjectFile,
  loadProjectText,
  loadRecipePaths,
  loadRecipeText,
  loadRecipeTexts,
  type ProjectLoadResult,
  type RecipeLoadOptions,
  type RecipeLoadResult,
  recipeHash,
} from "./recipe/load.js";
export { exportedRecipeSchema, projectSchema, recipeSchema } from "./recipe/schema-data.js";
export * from "./recipe/types.js";
export {
  PLAN_FORMAT,
  type PlanDocument,
  PlanFormatError,
  parsePlansJson,
  renderPlansJson,
} from "./render/json.js";
export { renderPlansMarkdown } from "./render/markdown.js";
export { renderPlansText, renderPlanText, summaryLine } from "./render/text.js";
export { createEnv, type EnvOptions } from "./run/env.js";
export { createLogger, type EngineLogger, REDACT_PATHS } from "./run/logger.js";
export { type Reconciliation, reconcile } from "./run/reconcile.js";
export {
  applySavedPlan,
  type EngineEnv,
  LockedError,
  type Outcome,
  planRecipe,
  type RecipeRun,
  StalePlanError,
  syncRecipe,
  withLock,
} from "./run/runner.js";
export { type Item, type ItemKind, itemLabel, makeItem } from "./sources/item.js";
export {
  chartPlaylist,
  type ReadContext,
  readSource,
  readSources,
  SourceError,
  type SourceRead,
} from "./sources/read.js";
export type * from "./sources/reader.js";
export { engineMigrationsFolder, type OpenStateOptions, openSqliteState } from "./state/sqlite.js";
export type * from "./state/types.js";
export { compareWithSnapshot, type DriftChange, type DriftReport, detectDrift } from "./status/drift.js";
export { collectHistory, type HistoryRun } from "./status/history.js";
export { collectStatus, type RecipeStatus, type StatusReport } from "./status/status.js";
export { readTarget, type TargetRead, type TargetReadContext } from "./targets/read.js";
