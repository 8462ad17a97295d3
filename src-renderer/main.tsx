import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { on } from './bridge';
import { PoppedOutPanel } from './features/workspace/PoppedOutPanel';
import { LAYOUT_NAME, Workspace } from './features/workspace/Workspace';
import { keepInAddress, popOutTarget } from './features/workspace/pop-out';
import { rememberHistorySearch } from './features/blotters/history-query';
import { useDesk } from './stores/desk-store';
import { listenWhileOpening, loadEverything, loadSavedLayout, startFeed, type MarketsLoaded } from './stores/feed';
import './ui/theme.css';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html lost its #root element');

const target = popOutTarget(location.search);
// A popped-out Order history opens with the filters the trader had typed in the workspace.
if (target?.history !== undefined) rememberHistorySearch(target.id, target.history);
// A popped-out order ticket opens with the order the trader was writing.
if (target?.ticket !== undefined) useDesk.getState().editTicket(target.ticket);
let stopOpening = (): void => undefined;
let loaded: MarketsLoaded | undefined;
// The layout first, so the feed watches the products the restored panels show.
void loadSavedLayout(LAYOUT_NAME, target?.deskProductId)
  .then(() => {
    if (target?.deskProductId === undefined) return;
    // Only for this first load: a reload of the window takes the desk product as saved since.
    keepInAddress('deskProductId', undefined);
  })
  .then(() => {
    // What the desk tells from now on is taken, so nothing told while the window reads what it shows is lost.
    stopOpening = listenWhileOpening(on);
    return loadEverything();
  })
  .then((read) => {
    loaded = read;
  })
  .finally(() => {
    stopOpening();
    startFeed(on, loaded);
  });

createRoot(root).render(
  <StrictMode>
    {target === undefined ? <Workspace /> : <PoppedOutPanel target={target} />}
  </StrictMode>,
);
