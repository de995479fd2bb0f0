import { ArgumentError } from "../errors.js";
import {
  LIBRARY_ORDERS,
  type LibraryOrder,
  PRIVACY_STATUSES,
  type PrivacyStatus,
  RATINGS,
} from "../types/argument-words.js";

/**
 * Argument checks shared by the operations (library, playlists, uploads, podcasts, song). Each runs
 * before any request and names the argument (camelCase, as the caller wrote it) in its ArgumentError.
 */

/** A non-empty id string. */
export function checkId(operation: string, argument: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new ArgumentError(argument, "must be a non-empty id string", { operation });
  }
  return value;
}

/**
 * A non-empty string argument of the catalogue reads (ids, `params`); `hint` tells the caller where
 * a valid one comes from.
 */
export function requireId(
  argument: string,
  value: unknown,
  operation: string,
  hint = "",
): asserts value is string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new ArgumentError(argument, `must be a non-empty string${hint ? ` ${hint}` : ""}`, { operation });
  }
}

/** A non-empty array of non-empty strings (ids or feedback tokens). */
export function checkIdList(operation: string, argument: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new ArgumentError(argument, "must be a non-empty array of strings", { operation });
  }
  value.forEach((item, index) => {
    if (typeof item !== "string" || item.trim() === "") {
      throw new ArgumentError(argument, `item ${index} is not a non-empty string`, { operation });
    }
  });
  return value as string[];
}

/**
 * A list limit: a whole number of at least 1, or `null` for everything the service has (only where
 * `allowAll`). Whole pages are kept, so a result may hold more than `limit` items (docs/PROTOCOL.md#reading-to-a-limit).
 */
export function checkLimit(
  operation: string,
  argument: string,
  value: unknown,
  allowAll = true,
): number | null {
  if (value === null && allowAll) return null;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new ArgumentError(
      argument,
      allowAll
        ? "must be a whole number of at least 0, or null for all"
        : "must be a whole number of at least 0",
      { operation },
    );
  }
  return value;
}

/** The `like/*` endpoint of a rating (docs/PROTOCOL.md#library). */
export function ratingEndpoint(operation: string, rating: unknown): string {
  switch (rating) {
    case "LIKE":
      return "like/like";
    case "DISLIKE":
      return "like/dislike";
    case "INDIFFERENT":
      return "like/removelike";
    default:
      throw new ArgumentError("rating", `${JSON.stringify(rating)} is not one of ${RATINGS.join(", ")}`, {
        operation,
      });
  }
}

/** The `params` of an order, or undefined when none was asked for. */
export function orderParams(operation: string, order: unknown): string | undefined {
  if (order === undefined || order === null) return undefined;
  if (typeof order === "string" && Object.hasOwn(LIBRARY_ORDERS, order)) {
    return LIBRARY_ORDERS[order as LibraryOrder];
  }
  throw new ArgumentError(
    "order",
    `${JSON.stringify(order)} is not one of ${Object.keys(LIBRARY_ORDERS).join(", ")}`,
    { operation },
  );
}

export function checkPrivacy(operation: string, value: unknown): PrivacyStatus {
  if (typeof value === "string" && (PRIVACY_STATUSES as readonly string[]).includes(value)) {
    return value as PrivacyStatus;
  }
  throw new ArgumentError(
    "privacyStatus",
    `${JSON.stringify(value)} is not one of ${PRIVACY_STATUSES.join(", ")}`,
    { operation },
  );
}

/** The service refuses playlist titles over 150 characters and descriptions over 5,000. */
export const MAX_TITLE_LENGTH = 150;
export const MAX_DESCRIPTION_LENGTH = 5000;

/**
 * A playlist title or description the service will accept: it refuses angle brackets (it treats
 * them as markup) and texts over its length limits, so those fail here instead of on the wire.
 */
export function checkPlaylistText(
  operation: string,
  argument: "title" | "description",
  value: unknown,
): string {
  if (typeof value !== "string") throw new ArgumentError(argument, "must be a string", { operation });
  if (argument === "title" && value.trim() === "") {
    throw new ArgumentError(argument, "must not be empty", { operation });
  }
  if (/[<>]/.test(value)) {
    throw new ArgumentError(argument, "must not contain `<` or `>` (the service refuses them)", {
      operation,
    });
  }
  const max = argument === "title" ? MAX_TITLE_LENGTH : MAX_DESCRIPTION_LENGTH;
  // Counted in code points, as a user would count characters.
  const length = [...value].length;
  if (length > max) {
    throw new ArgumentError(argument, `is ${length} characters long; the service allows at most ${max}`, {
      operation,
    });
  }
  return value;
}

/** A playlist id for the edit endpoints, which take it without the `VL` browse prefix (docs/PROTOCOL.md#ids). */
export function editablePlaylistId(operation: string, value: unknown): string {
  const id = checkId(operation, "playlistId", value);
  return id.startsWith("VL") ? id.slice(2) : id;
}

/** A boolean option, when given. */
export function checkBoolean(operation: string, argument: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") throw new ArgumentError(argument, "must be true or false", { operation });
  return value;
}

/** An options object (or nothing). */
export function checkOptions<T extends object>(operation: string, value: unknown): Partial<T> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ArgumentError("options", "must be an object", { operation });
  }
  return value as Partial<T>;
}
