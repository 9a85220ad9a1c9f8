/** The current time. Every timestamp the arcade records comes from here, so tests move a clock. */
export interface Clock {
  now(): Date;
}

/** New unique ids (UUIDs). */
export interface Ids {
  next(): string;
}
