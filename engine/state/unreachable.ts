/**
 * A state that could not be reached (a PostgreSQL server restarting, a network cut), told apart
 * from every other failure by callers that do not know which database holds the state: such an
 * error means nothing was recorded — not that a write to the service failed — so the applier lets
 * it end the run instead of journaling the write it was recording as failed.
 */
export function stateUnreachable(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { stateUnreachable?: unknown }).stateUnreachable === true
  );
}
