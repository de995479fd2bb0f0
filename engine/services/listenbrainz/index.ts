export { parsePlaylistId, STAT_RANGES, type StatRange } from "./args.js";
export { type PlaylistInfo, SERIES, type Series } from "./jspf.js";
export {
  LISTENBRAINZ_API,
  type ListenBrainzOptions,
  type ListenBrainzPlaylist,
  ListenBrainzReader,
} from "./reader.js";
