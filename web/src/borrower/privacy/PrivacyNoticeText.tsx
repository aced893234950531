import { useEffect, useState } from 'react';
import { loadPrivacyNotice, type PrivacyNoticeAnswer } from './privacyApi';

/** The notice in force, fetched on first show; `onLoaded` hears its version (what a consent names). */
export function usePrivacyNotice(): { notice: PrivacyNoticeAnswer | null; failed: boolean } {
  const [notice, setNotice] = useState<PrivacyNoticeAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadPrivacyNotice().then(
      (loaded) => live && setNotice(loaded),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  return { notice, failed };
}

/** The notice's full text in a scrollable, focusable box (a keyboard can scroll it). */
export function PrivacyNoticeText({ notice, failed }: { notice: PrivacyNoticeAnswer | null; failed: boolean }) {
  if (failed) return <p className="field__error">The privacy notice could not be loaded. Check your connection and try again.</p>;
  if (!notice) return <p className="muted">Loading the privacy notice…</p>;
  return (
    <div className="privacy-notice" tabIndex={0} role="document" aria-label={`Privacy notice, version ${notice.version}`} data-testid="privacy-notice">
      {notice.text}
    </div>
  );
}
