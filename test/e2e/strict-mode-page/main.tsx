// A popped-out Trades panel as `npm start` renders it: React's development build, under StrictMode, which mounts,
// unmounts and mounts again every component at once (test/e2e/popped-out-strict.test.ts).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PoppedOutPanel } from '../../../src-renderer/features/workspace/PoppedOutPanel';

const root = document.getElementById('root');
if (root === null) throw new Error('no #root');
createRoot(root).render(
  <StrictMode>
    <PoppedOutPanel target={{ id: 'p1', kind: 'tape' }} />
  </StrictMode>,
);
