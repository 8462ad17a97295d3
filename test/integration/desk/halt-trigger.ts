/** The file whose presence in the venue's data folder makes halting-venue-worker.ts fail the next commit. */
export const HALT_TRIGGER = 'halt-next-commit';
