import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { startLiveUpdates } from './borrower/stores/liveUpdates';
import { useSession } from './borrower/stores/session';
import './styles.css';
import './screens.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Live updates follow the session: a socket and the member's data while a borrower is signed in.
startLiveUpdates();
// The session check starts before the first render so the spinner shows for as short a time as possible.
void useSession.getState().start();

createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
