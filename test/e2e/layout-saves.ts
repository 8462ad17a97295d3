/**
 * Watches a window's bridge socket for the layout it asks the desk to keep, so a test stops the desk only once
 * the desk has answered yes to the layout the trader arranged, rather than after a guessed pause.
 */
import type { Page } from '@playwright/test';
import { expect } from 'vitest';

export interface SavedPanel {
  id: string;
  kind: string;
  width: number;
  height: number;
  productId?: string;
}

interface Frame {
  id?: unknown;
  type?: unknown;
  method?: unknown;
  request?: { layout?: { panels?: SavedPanel[] } };
  result?: { ok?: unknown };
}

export interface LayoutSaves {
  /** Panels of each layouts.save sent, by call id. */
  sent: Map<number, SavedPanel[]>;
  /** Call ids the desk answered with success. */
  accepted: Set<number>;
}

function frameOf(payload: string | Buffer): Frame | undefined {
  try {
    const frame: unknown = JSON.parse(payload.toString());
    return typeof frame === 'object' && frame !== null ? frame : undefined;
  } catch {
    return undefined;
  }
}

export function watchLayoutSaves(page: Page): LayoutSaves {
  const saves: LayoutSaves = { sent: new Map(), accepted: new Set() };
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const frame = frameOf(payload);
      if (frame?.method === 'layouts.save' && typeof frame.id === 'number') saves.sent.set(frame.id, frame.request?.layout?.panels ?? []);
    });
    socket.on('framereceived', ({ payload }) => {
      const frame = frameOf(payload);
      if (frame?.type === 'result' && typeof frame.id === 'number' && frame.result?.ok === true) saves.accepted.add(frame.id);
    });
  });
  return saves;
}

/** Waits until the desk has accepted a layout the predicate recognises. */
export async function waitForSave(saves: LayoutSaves, wanted: (panels: SavedPanel[]) => boolean, timeout: number): Promise<void> {
  const kept = (): boolean => [...saves.sent].some(([id, panels]) => saves.accepted.has(id) && wanted(panels));
  await expect.poll(kept, { timeout }).toBe(true);
}
