export { LASTFM_API, LASTFM_PERIODS, type LastfmOptions, type LastfmPeriod, LastfmReader } from "./reader.js";
export { lastfmServiceId } from "./tracks.js";
