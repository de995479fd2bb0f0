/**
 * The HTTP helpers both the transport and OAuth's token requests use (a body as the service encoded
 * it, an undici failure as a TransportError): at the client's root, below both folders.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { Redactor } from "../shared/redact.js";
import { ErrorCodes, MusicApiError, TransportError } from "./errors.js";

/** undici's request() does not decompress: the body comes back as the service encoded it. */
export function decodeBody(bytes: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return gunzipSync(bytes);
    case "deflate":
      return inflateSync(bytes);
    case "br":
      return brotliDecompressSync(bytes);
    default:
      return bytes;
  }
}

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

/** An undici or socket failure as a TransportError with a stable code; the cause keeps its own code. */
export function toTransportError(
  error: unknown,
  operation: string,
  timeoutMs: number,
  redactor: Redactor,
): MusicApiError {
  if (error instanceof MusicApiError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const detail = redactor.text(error instanceof Error ? error.message : String(error));
  // Keep only the code on the cause: an undici error can hold the request it was making.
  const cause = { code: typeof code === "string" ? code : undefined };
  if (typeof code === "string" && TIMEOUT_CODES.has(code)) {
    return new TransportError(ErrorCodes.TIMEOUT, `no response within ${timeoutMs} ms (${detail})`, {
      operation,
      cause,
    });
  }
  return new TransportError(ErrorCodes.CONNECTION, `connection failed: ${detail}`, { operation, cause });
}
