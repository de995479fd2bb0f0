import type { FeedbackTokens, LikeStatus, ListenAgainFeedbackTokens } from "../types/common.js";
import { bool, get, isObject, list, type Path, str } from "./nav.js";
import { LIKE_STATUS, MENU_ITEMS, NAV_BROWSE_ID, NAV_PLAYLIST_ID, NAV_WATCH_PLAYLIST_ID } from "./paths.js";

/**
 * Fields read from an item's context menu (`menu.menuRenderer.items`), docs/PROTOCOL.md#menus-and-ratings
 * "Menu-derived song fields".
 */

const DEFAULT_ICON: Path = ["defaultIcon", "iconType"];
const ICON: Path = ["icon", "iconType"];
const IS_TOGGLED: Path = ["isToggled"];
const DEFAULT_TOKEN: Path = ["defaultServiceEndpoint", "feedbackEndpoint", "feedbackToken"];
const TOGGLED_TOKEN: Path = ["toggledServiceEndpoint", "feedbackEndpoint", "feedbackToken"];
const SERVICE_TOKEN: Path = ["serviceEndpoint", "feedbackEndpoint", "feedbackToken"];

/** Library and Listen-again state with the tokens that change it. Keys present only when found. */
export interface MenuData {
  inLibrary?: boolean;
  pinnedToListenAgain?: boolean;
  feedbackTokens?: FeedbackTokens;
  listenAgainFeedbackTokens?: ListenAgainFeedbackTokens;
  /** History items: the token that removes the item from the history. */
  feedbackToken?: string | null;
}

/**
 * Reads the toggle and service entries of an item's menu. Since late 2025 the state is the
 * `isToggled` boolean (the service stopped swapping icons); `BOOKMARK` / `KEEP_OFF` as the default
 * icon still mean "already saved / pinned". The 2023–mid-2025 icons `LIBRARY_ADD` / `LIBRARY_SAVED`
 * are not recognised, as in the reference. Returns `{}` for an item without a menu.
 */
export function parseMenuData(item: unknown): MenuData {
  const out: MenuData = {};
  const items = get(item, MENU_ITEMS);
  if (!Array.isArray(items)) return out;
  for (const entry of items) readMenuEntry(out, entry);
  return out;
}

/** One entry's part of `parseMenuData`: a toggle or service entry's state and tokens, into `out`. */
export function readMenuEntry(out: MenuData, entry: unknown): void {
  if (!isObject(entry)) return;
  const menuItem = entry["toggleMenuServiceItemRenderer"] ?? entry["menuServiceItemRenderer"];
  if (!isObject(menuItem)) return;
  if (out.inLibrary === undefined) out.inLibrary = false;
  if (out.pinnedToListenAgain === undefined) out.pinnedToListenAgain = false;
  const icon = str(menuItem, DEFAULT_ICON) ?? str(menuItem, ICON);
  const toggled = bool(menuItem, IS_TOGGLED) === true;
  switch (icon) {
    case "KEEP":
      if (toggled) out.pinnedToListenAgain = true;
      out.listenAgainFeedbackTokens = {
        pin: str(menuItem, DEFAULT_TOKEN),
        unpin: str(menuItem, TOGGLED_TOKEN),
      };
      break;
    case "KEEP_OFF":
      out.pinnedToListenAgain = true;
      out.listenAgainFeedbackTokens = {
        pin: str(menuItem, TOGGLED_TOKEN),
        unpin: str(menuItem, DEFAULT_TOKEN),
      };
      break;
    case "BOOKMARK_BORDER":
      if (toggled) out.inLibrary = true;
      out.feedbackTokens = { add: str(menuItem, DEFAULT_TOKEN), remove: str(menuItem, TOGGLED_TOKEN) };
      break;
    case "BOOKMARK":
      out.inLibrary = true;
      out.feedbackTokens = { add: str(menuItem, TOGGLED_TOKEN), remove: str(menuItem, DEFAULT_TOKEN) };
      break;
    case "REMOVE_FROM_HISTORY":
      out.feedbackToken = str(menuItem, SERVICE_TOKEN);
      break;
  }
}

/**
 * The current rating of a collection from the action its like toggle would perform
 * (`defaultServiceEndpoint.likeEndpoint.status`): pressing "LIKE" means it is not liked yet, pressing
 * "INDIFFERENT" means it is liked. Null for any other action (the reference fails there).
 */
export function likeStatusFromAction(action: string | null): LikeStatus | null {
  if (action === "LIKE") return "INDIFFERENT";
  if (action === "INDIFFERENT") return "LIKE";
  return null;
}

const LIKE_ACTION: Path = ["likeEndpoint", "status"];

/** `likeStatusFromAction` of a service endpoint object (`{likeEndpoint: {status}}`). */
export function likeStatusOfService(service: unknown): LikeStatus | null {
  return likeStatusFromAction(str(service, LIKE_ACTION));
}

/** A track's own rating (`LIKE_STATUS`); the service's word as is, null when absent. */
export function trackLikeStatus(item: unknown): LikeStatus | null {
  return str(item, LIKE_STATUS) as LikeStatus | null;
}

const MNIR = "menuNavigationItemRenderer";
const MNIR_BROWSE_ID: Path = [MNIR, ...NAV_BROWSE_ID];

export interface MenuPlaylists {
  shuffleId?: string;
  radioId?: string;
}

/**
 * Artist shuffle and radio playlist ids from the menu's navigation entries (`MUSIC_SHUFFLE`, `MIX`);
 * keys present only when found.
 */
export function parseMenuPlaylists(item: unknown): MenuPlaylists {
  const out: MenuPlaylists = {};
  for (const entry of list(item, MENU_ITEMS)) {
    const nav = get(entry, [MNIR]);
    if (!isObject(nav)) continue;
    const icon = str(nav, ICON);
    if (icon !== "MUSIC_SHUFFLE" && icon !== "MIX") continue;
    const id = str(nav, NAV_WATCH_PLAYLIST_ID) ?? str(nav, NAV_PLAYLIST_ID);
    if (id === null || id === "") continue;
    if (icon === "MUSIC_SHUFFLE") out.shuffleId = id;
    else out.radioId = id;
  }
  return out;
}

/** The `MNIR` browse id among menu entries that starts with `prefix` (credits `MPTC…`), or null. */
export function menuBrowseId(item: unknown, prefix: string): string | null {
  for (const entry of list(item, MENU_ITEMS)) {
    const id = entryBrowseId(entry, prefix);
    if (id !== null) return id;
  }
  return null;
}

/** One entry's part of `menuBrowseId`: its `MNIR` browse id when it starts with `prefix`, else null. */
export function entryBrowseId(entry: unknown, prefix: string): string | null {
  const id = str(entry, MNIR_BROWSE_ID);
  return id?.startsWith(prefix) ? id : null;
}
