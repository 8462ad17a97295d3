// The height a ladder, tape, chart or blotter is given: what is left of its panel under its header and notes.
import { useLayoutEffect, useState, type RefObject } from 'react';
import type { PanelKind } from '../../stores/layout-slice';
import { SIZED_BY_HEIGHT } from './PanelView';

/**
 * The room from the top of the content of the panel in `holder` (its body's last child: the ladder, the table) down
 * to `footOf(panel)`, in px; undefined for a panel as tall as what it shows, and until measured.
 *
 * Measured from the content's top, which its header and the notes above it place, never from its foot: the content
 * is as tall as the room it is given, so a measure from its foot depends on the last answer. Added to the last
 * correction, that drifted whenever the content was held at its least height (each resize took the overflow off
 * again), and a ladder ended up to 176 px short of its panel's foot once the slot was taller again.
 *
 * `footOf` is where the content should end, in the viewport's coordinates as the content's top is measured, taking
 * back any scrolling that moved the content (a panel or window scrolled over content at its least height); one
 * function for the life of the component (a module's), as `holder` is one ref.
 */
export function useContentRoom(kind: PanelKind, holder: RefObject<HTMLElement | null>, footOf: (panel: HTMLElement) => number): number | undefined {
  const [room, setRoom] = useState<number | undefined>(undefined);
  useLayoutEffect(() => {
    const box = holder.current;
    const panel = box?.querySelector<HTMLElement>('.panel');
    const head = panel?.querySelector('.panel-head');
    const body = panel?.querySelector('.panel-body');
    if (box === null || panel === null || panel === undefined || head === null || head === undefined || body === null || body === undefined || !SIZED_BY_HEIGHT.has(kind)) return;
    const measure = (): void => {
      const content = body.lastElementChild;
      if (content !== null && content !== undefined) setRoom(Math.floor(footOf(panel) - content.getBoundingClientRect().top));
    };
    measure();
    // The panel's size (its slot's, its window's width), and its header's, which takes one line or three as the
    // panel is wide and as its tools come and go; the holder's, a popped-out window's page, which grows as the
    // window's own toolbar over the panel wraps (another environment's badge). The window's height moves a
    // popped-out panel's foot without resizing any of them. And the body's: a note that comes and goes over the
    // content (Fills' failed read, Order history's full read) moves its top, and the body changes height with it
    // until the content is given the room. (The notices float over the page: they move nothing.)
    const watch = new ResizeObserver(measure);
    watch.observe(box);
    watch.observe(panel);
    watch.observe(head);
    watch.observe(body);
    window.addEventListener('resize', measure);
    return () => (watch.disconnect(), window.removeEventListener('resize', measure));
  }, [kind, holder, footOf]);
  return room;
}

/** Where a panel's padding starts at its foot, in the viewport, as if the panel were not scrolled. */
export function panelInnerFoot(panel: HTMLElement): number {
  const style = getComputedStyle(panel);
  return panel.getBoundingClientRect().bottom - parseFloat(style.paddingBottom) - parseFloat(style.borderBottomWidth) - panel.scrollTop;
}
