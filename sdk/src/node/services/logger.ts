import { token } from '@werkbank/kernel';

/** The server's log (standard output, or what a test collects). One line per call; never user data in bulk. */
export interface Logger {
  log(message: string): void;
}
export const Logger = token<Logger>('Logger');
