// What the bench page offers the Node side (bench/renderer.ts) through `page.evaluate`.

export type Scene = 'ladder-tape' | 'order-history' | 'fills';

export interface FrameRun {
  /** requestAnimationFrame timestamps, one per frame, in ms. */
  stamps: number[];
  /** Book changes and trade events delivered while recording. */
  books: number;
  trades: number;
  /** Rows the scrolled table passed through while recording. */
  rowsScrolled: number;
}

/**
 * How the blotter moves while frames are recorded: not at all, at a fast wheel's 4 000 px a second, or with its
 * scrollbar dragged from top to bottom over the run, so that every frame shows rows not drawn before.
 */
export type ScrollMode = 'none' | 'wheel' | 'drag';

export const WHEEL_PX_PER_SEC = 4000;

export interface RecordOptions {
  ms: number;
  /** Book changes a second the desk emits meanwhile; trades likewise. */
  bookRate: number;
  tradeRate: number;
  scroll: ScrollMode;
}

export interface BenchPage {
  record(options: RecordOptions): Promise<FrameRun>;
}

declare global {
  interface Window {
    novaBench?: BenchPage;
  }
}
