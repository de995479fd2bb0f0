/**
 * The words some arguments take (ratings, library orders, privacy statuses): the operations check
 * an argument against them, and the result types name them.
 */

export const RATINGS = ["LIKE", "DISLIKE", "INDIFFERENT"] as const;
export type Rating = (typeof RATINGS)[number];

/** Sort orders of the library and upload lists, with the `params` the service expects (docs/PROTOCOL.md#library). */
export const LIBRARY_ORDERS = {
  a_to_z: "ggMGKgQIARAA",
  z_to_a: "ggMGKgQIARAB",
  recently_added: "ggMGKgQIABAB",
} as const;
export type LibraryOrder = keyof typeof LIBRARY_ORDERS;

export const PRIVACY_STATUSES = ["PUBLIC", "PRIVATE", "UNLISTED"] as const;
export type PrivacyStatus = (typeof PRIVACY_STATUSES)[number];
