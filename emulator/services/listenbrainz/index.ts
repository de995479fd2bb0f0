export type { Series } from "./data.js";
export { handleListenBrainz, listenbrainzTruth, listenbrainzUsers } from "./service.js";
