import { useEffect, useState } from 'react';
import { formatTime } from '../../shared/money';

/**
 * While the phone has no connection, says so, and that what is on screen is as of the moment it
 * went offline: stale data must not pass for current (issue 22, item 13).
 */
export function OfflineBanner() {
  // Read once drawn, not while drawing: the dashboard's prerendered frame, drawn online at build
  // time, is hydrated with this component's first render (borrower/dashboard/frame.tsx).
  const [offlineSince, setOfflineSince] = useState<string | null>(null);
  useEffect(() => {
    const offline = () => setOfflineSince(new Date().toISOString());
    const online = () => setOfflineSince(null);
    if (!navigator.onLine) offline();
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, []);
  if (!offlineSince) return null;
  return (
    <div className="offline-banner" role="status">
      <strong>No internet connection.</strong> What you see was last updated at {formatTime(offlineSince)} and may be out of date.
    </div>
  );
}
