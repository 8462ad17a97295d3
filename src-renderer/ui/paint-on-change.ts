// How the busiest panels (ladder, tape, chart) follow the store: not through a React render per update, but by
// painting the DOM (or canvas) themselves at most once a frame, however many updates came in it.
import { useDesk, type DeskState } from '../stores/desk-store';

/**
 * Paints with `paint` in the next frame after a store update that `changed` says concerns it, once however many
 * came in that frame. `schedule` asks for a paint outright; `stop` ends it, a paint still asked for included.
 */
export function paintOnChange(paint: () => void, changed: (state: DeskState, prev: DeskState) => boolean): { schedule: () => void; stop: () => void } {
  let frame = 0;
  const run = (): void => {
    frame = 0;
    paint();
  };
  const schedule = (): void => {
    if (frame === 0) frame = requestAnimationFrame(run);
  };
  const unsubscribe = useDesk.subscribe((state, prev) => {
    if (changed(state, prev)) schedule();
  });
  return {
    schedule,
    stop: () => {
      unsubscribe();
      if (frame !== 0) cancelAnimationFrame(frame);
    },
  };
}
