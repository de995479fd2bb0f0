/**
 * The non-JSON pages clients read (docs/PROTOCOL.md#visitor-id, docs/PROTOCOL.md#player, docs/PROTOCOL.md#browsing): the start page whose first
 * `ytcfg.set({...})` call sits on one line with VISITOR_DATA and the client version, and which names
 * the player script (`jsUrl`); the player script with its `signatureTimestamp`; and the
 * `/playlist?list=OLAK…` page whose first quoted `MPRE…` token is the album's browse id.
 */
import { clientVersion } from "../../shared/wire/constants.js";
import type { EmulatorState } from "../context.js";
import { cipherPlan } from "../stream-cipher.js";
import { playerScript } from "./player-script.js";

export const PLAYER_VERSION = "e12fbea4";
export const JS_URL = `/s/player/${PLAYER_VERSION}/player_ias.vflset/en_US/base.js`;

/** Days since the epoch minus one, as the service's current player would carry. */
export const signatureTimestamp = (nowMs: number) => Math.floor(nowMs / 86_400_000) - 1;

export function visitorData(state: EmulatorState): string {
  return Buffer.from(`emulator-visitor:${state.baseUrl}`).toString("base64url").slice(0, 24);
}

export function startPage(state: EmulatorState): string {
  const cfg = {
    VISITOR_DATA: visitorData(state),
    INNERTUBE_CLIENT_VERSION: clientVersion(new Date(state.now())),
    INNERTUBE_CLIENT_NAME: "WEB_REMIX",
    INNERTUBE_API_KEY: "AIzaSyC9XL3ZjWddXya6X74dJoCTL-WEYFDNX30",
    HL: "en",
    GL: "US",
  };
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8"><title>YouTube Music</title>',
    `<script nonce="emu">ytcfg.set(${JSON.stringify(cfg)});</script>`,
    `<script nonce="emu">ytcfg.set({"PLAYER_JS_URL":"${JS_URL}","WEB_PLAYER_CONTEXT_CONFIGS":{"WEB_PLAYER_CONTEXT_CONFIG_ID_MUSIC_WATCH":{"jsUrl":"${JS_URL}"}}});</script>`,
    "</head><body><ytmusic-app></ytmusic-app></body></html>",
  ].join("\n");
}

/**
 * The player script (render/player-script.ts): `signatureTimestamp`, and the signature and `n`
 * functions of this player version, which the stream URLs of `player` need (emulator/README.md
 * "Stream URLs and the player script"). Our client reads the `signatureTimestamp:N` text.
 */
export function basejs(state: EmulatorState): string {
  return playerScript(PLAYER_VERSION, signatureTimestamp(state.now()), cipherPlan(PLAYER_VERSION));
}

export function playlistHtml(state: EmulatorState, list: string): string {
  const album = list ? state.store.catalogue.albumByAudioPlaylist(list) : null;
  // The real page embeds its data as escaped JSON inside a script; keep the escaping.
  const data = album
    ? `{\\x22browseEndpoint\\x22:{\\x22browseId\\x22:\\x22${album.browseId}\\x22,\\x22browseEndpointContextSupportedConfigs\\x22:{}}}`
    : "{}";
  return [
    "<!DOCTYPE html>",
    "<html><head><title>YouTube Music</title></head><body>",
    `<script nonce="emu">initialData.push({path: '\\/browse', params: {}, data: '${data}'});</script>`,
    "</body></html>",
  ].join("\n");
}
