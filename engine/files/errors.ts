/** The whole file is refused: binary, badly encoded, too big, malformed, or strict with a bad row. */
export class FileSourceError extends Error {
  override name = "FileSourceError";

  constructor(
    message: string,
    /** 1-based; null when the problem is the file as a whole. */
    readonly line: number | null = null,
  ) {
    super(message);
  }
}
