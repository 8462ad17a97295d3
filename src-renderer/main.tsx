import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { VenueStatusPanel } from './features/venue-status/VenueStatusPanel';
import './ui/theme.css';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html lost its #root element');
createRoot(root).render(
  <StrictMode>
    <VenueStatusPanel />
  </StrictMode>,
);
