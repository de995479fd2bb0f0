import { vi } from "vitest";
import { stretched } from "./load.js";

/**
 * Each test file's time limits, read as the file starts: two minutes, stretched by how
 * oversubscribed the machine is then (test/support/load.ts). A limit is a budget for a hang, not a
 * speed check (bench/ measures speed), so tests do not set shorter ones of their own: an undo
 * soak seed that takes seconds on a quiet machine failed on its own 30 s limit beside a CI run and
 * a soak (load 39).
 */
vi.setConfig({ testTimeout: stretched(120_000), hookTimeout: stretched(120_000) });
