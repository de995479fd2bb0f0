/**
 * Wire constants of the music web client (docs/PROTOCOL.md#requests). The emulator may import this module too:
 * these are facts about the protocol, not parsing.
 */

export const SERVICE_ORIGIN = "https://music.youtube.com";
export const UPLOAD_ORIGIN = "https://upload.youtube.com";
export const API_PATH = "/youtubei/v1/";

/** The web client's public API key; sent only with browser-header auth, as the web client does. */
export const API_KEY = "AIzaSyC9XL3ZjWddXya6X74dJoCTL-WEYFDNX30";

export const CLIENT_NAME = "WEB_REMIX";
/** Numeric id of WEB_REMIX for the `x-youtube-client-name` header. */
export const CLIENT_NAME_ID = "67";

export const USER_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:88.0) Gecko/20100101 Firefox/88.0";

/** Consent cookie that skips the EU consent page; sent when no pasted cookie header is used. */
export const CONSENT_COOKIE = "SOCS=CAI";

/** The web client's version string for a day: `1.YYYYMMDD.01.00` (UTC). */
export function clientVersion(now: Date = new Date()): string {
  const y = now.getUTCFullYear();
  const m = String(now.getUTCMonth() + 1).padStart(2, "0");
  const d = String(now.getUTCDate()).padStart(2, "0");
  return `1.${y}${m}${d}.01.00`;
}

/** Languages (`hl`) the service's web client is offered in; the underscore forms are sent verbatim. */
export const LANGUAGES: readonly string[] = Object.freeze(
  "ar cs de en es fr hi it ja ko nl pt ru tr ur zh_CN zh_TW".split(" "),
);

/** Locations (`gl`) the service is available in: ISO 3166-1 alpha-2 codes. */
export const LOCATIONS: readonly string[] = Object.freeze(
  (
    "AE AR AT AU AZ BA BD BE BG BH BO BR BY CA CH CL CO CR CY CZ DE DK DO DZ EC EE EG ES FI FR GB GE GH GR " +
    "GT HK HN HR HU ID IE IL IN IQ IS IT JM JO JP KE KH KR KW KZ LA LB LI LK LT LU LV LY MA ME MK MT MX MY " +
    "NG NI NL NO NP NZ OM PA PE PG PH PK PL PR PT PY QA RO RS RU SA SE SG SI SK SN SV TH TN TR TW TZ UA UG " +
    "US UY VE VN YE ZA ZW"
  ).split(" "),
);
