/**
 * The log of changes made to the other services' stand-ins through their controls: each service's
 * in the order made (emulator/services/kept-changes.ts replays them on the generated data).
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "./db.js";
import { standInChanges } from "./schema.js";

const p = sql.placeholder;

export class StandInChangeStore {
  private readonly q;

  constructor(db: Db) {
    const t = standInChanges;
    this.q = {
      add: db
        .insert(t)
        .values({ service: p("service"), change: p("change") })
        .prepare(),
      list: db
        .select({ change: t.change })
        .from(t)
        .where(eq(t.service, p("service")))
        .orderBy(asc(t.id))
        .prepare(),
    };
  }

  add(service: string, change: unknown): void {
    this.q.add.run({ service, change: JSON.stringify(change) });
  }

  /**
   * The service's changes, oldest first. A row that is not JSON (a database damaged or edited by
   * hand) is left out, as a change that no longer applies is: one such row must not cost the
   * stand-in every other change, nor fail the request that first reads its data.
   */
  list(service: string): unknown[] {
    return this.q.list.all({ service }).flatMap((r) => {
      try {
        return [JSON.parse(r.change) as unknown];
      } catch {
        return [];
      }
    });
  }
}
