import type { AccountInfo } from "../types/library.js";
import { mustObj, type Path, str } from "./nav.js";

/** The signed-in account's header in the account menu (docs/PROTOCOL.md#library get_account_info). */
const HEADER: Path = [
  "actions",
  0,
  "openPopupAction",
  "popup",
  "multiPageMenuRenderer",
  "header",
  "activeAccountHeaderRenderer",
];

/** `get_account_info`: name, channel handle (null without a channel) and photo URL. */
export function parseAccountInfo(response: unknown): AccountInfo {
  const header = mustObj(response, HEADER);
  return {
    accountName: str(header, ["accountName", "runs", 0, "text"]),
    channelHandle: str(header, ["channelHandle", "runs", 0, "text"]),
    accountPhotoUrl: str(header, ["accountPhoto", "thumbnails", 0, "url"]),
  };
}
