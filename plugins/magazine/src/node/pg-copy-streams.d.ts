// pg-copy-streams ships no types; the part the Magazine's bulk write uses (decision 0075).
declare module 'pg-copy-streams' {
  import type { Writable } from 'node:stream';

  /** A `COPY … FROM STDIN` statement: write its rows into it, then end it. */
  export interface CopyStreamQuery extends Writable {
    rowCount: number;
  }

  export function from(text: string): CopyStreamQuery;
}
