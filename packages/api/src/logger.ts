/**
 * Structured JSON logs (pino). Credentials and key material are redacted wherever they appear
 * in a logged object, so a request log can never carry an API key or the wallet mnemonic.
 */
import { pino } from "pino";

export type Logger = pino.Logger;

export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  "authorization",
  "mnemonic",
  "apiKey",
  "secret",
  "password",
  "*.authorization",
  "*.mnemonic",
  "*.apiKey",
  "*.secret",
  "*.password",
  "*.WALLET_MNEMONIC",
  "*.API_KEY",
  "*.DATABASE_URL",
];

export interface LoggerOptions {
  level?: pino.LevelWithSilent;
  /** Where lines go; stdout by default. Tests pass a stream to read what was logged. */
  destination?: pino.DestinationStream;
}

export function createLogger({ level = "info", destination }: LoggerOptions = {}): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: "api" },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
