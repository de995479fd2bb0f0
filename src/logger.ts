/**
 * The logger the client reports through: pino's method shape (`logger.warn(fields, message)`), so a
 * pino logger can be passed as is. By default nothing is logged.
 */
export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

const ignore = (): void => {};

export const silentLogger: Logger = Object.freeze({
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
});
