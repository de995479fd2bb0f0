export { handleLastfm, lastfmKey, lastfmTruth } from "./service.js";
