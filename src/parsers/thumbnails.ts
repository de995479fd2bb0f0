import type { Thumbnail } from "../types/common.js";
import { get, type Path } from "./nav.js";
import { THUMBS } from "./paths.js";

/**
 * The thumbnail list at `path`, or null when absent (2025 playlist rows may have none). The
 * service's array is returned as is: copying every `{url, width, height}` would cost time for
 * nothing, the objects already have exactly that shape.
 */
export function thumbnailsAt(node: unknown, path: Path = THUMBS): Thumbnail[] | null {
  const value = get(node, path);
  return Array.isArray(value) ? (value as Thumbnail[]) : null;
}
