import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { App } from '../App';
import { loadBorrowerScreens } from '../borrower/lazyScreens';

// The borrower screens are lazy chunks in the app; loaded here first, they draw in the first
// render as before, so a test reads the screen right after rendering it.
await loadBorrowerScreens();

let currentLocation = '';

function LocationProbe() {
  const location = useLocation();
  currentLocation = `${location.pathname}${location.search}`;
  return null;
}

/** Renders the whole app at `path`, as a visitor would open it. */
export function renderApp(path: string) {
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <App />
      <LocationProbe />
    </MemoryRouter>,
  );
  return { ...view, location: () => currentLocation };
}
