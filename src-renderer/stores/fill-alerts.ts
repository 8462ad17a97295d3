// A desktop notification and an optional short tone when one of the trader's orders fills.
import type { Fill } from '../../src-shared/ipc/contract';
import { environmentLabel } from '../../src-shared/ipc/environment-names';
import { formatDecimal } from '../ui/decimal-text';
import { useDesk } from './desk-store';
import { isPopOut } from '../features/workspace/pop-out';

const SOUND_KEY = 'nova.fillSound';

export function fillSoundOn(): boolean {
  return localStorage.getItem(SOUND_KEY) === 'on';
}

export function setFillSound(on: boolean): void {
  localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
}

function beep(): void {
  const audio = new AudioContext();
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.frequency.value = 880;
  gain.gain.value = 0.05;
  tone.connect(gain).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.12);
  tone.onended = () => void audio.close();
}

/** This window's address and whether it is a pop-out, worked out once, not on every fill. */
let role: { search: string; poppedOut: boolean } | undefined;

function poppedOut(): boolean {
  const search = location.search;
  if (role?.search !== search) role = { search, poppedOut: isPopOut(search) };
  return role.poppedOut;
}

export function notifyFills(fills: readonly Fill[]): void {
  if (fills.length === 0) return;
  const first = fills[0];
  if (first === undefined) return;
  const what = `${first.side} ${formatDecimal(first.size)} ${first.productId} at ${formatDecimal(first.price)}`;
  const text = fills.length === 1 ? what : `${fills.length} fills, last ${what}`;
  const environment = useDesk.getState().connection?.environment;
  useDesk.getState().notify({ kind: 'info', ref: '', title: 'Filled', detail: text, explanation: '', action: '' });
  // Every window runs its own feed: the notification and the tone come from the workspace alone, or a fill rang and
  // popped up once more for every popped-out panel. (In the app, main raises the native one and pages may not.)
  if (poppedOut()) return;
  if (typeof Notification !== 'undefined') {
    if (Notification.permission === 'granted') new Notification(`${environment === undefined ? 'Nova Desk' : environmentLabel(environment)}: filled`, { body: text });
    else if (Notification.permission === 'default') void Notification.requestPermission();
  }
  if (fillSoundOn()) beep();
}
