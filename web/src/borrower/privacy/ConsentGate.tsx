import { useState } from 'react';
import { toast } from '../../shared/toast/toastStore';
import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { useSession } from '../stores/session';
import { giveConsent } from './privacyApi';
import { PrivacyNoticeText, usePrivacyNotice } from './PrivacyNoticeText';

/**
 * Drawn in place of every signed-in screen while the member has not consented to the notice in
 * force (a member an admin registered, or a notice that changed since): read it, accept it, go on.
 */
export function ConsentGate() {
  useDocumentTitle('Privacy notice');
  const { notice, failed } = usePrivacyNotice();
  const acceptMember = useSession((state) => state.acceptMember);
  const logout = useSession((state) => state.logout);
  const [saving, setSaving] = useState(false);

  async function accept() {
    if (!notice) return;
    setSaving(true);
    try {
      acceptMember(await giveConsent(notice.version));
    } catch (error) {
      setSaving(false);
      toast({ variant: 'destructive', title: 'Not saved', description: (error instanceof Error && error.message) || 'Please try again' });
    }
  }

  return (
    <div className="page">
      <section className="card" aria-labelledby="consent-title">
        <h1 id="consent-title" className="card__title">
          Our privacy notice
        </h1>
        <p className="muted">Please read how we handle your personal data. Accept it to go on using Honeylend; we cannot take a loan application without it.</p>
        <PrivacyNoticeText notice={notice} failed={failed} />
        <div className="button-row">
          <button type="button" className="button button--primary" onClick={() => void accept()} disabled={!notice || saving} aria-busy={saving || undefined}>
            {saving ? 'Please wait...' : 'I accept the privacy notice'}
          </button>
          <button type="button" className="button button--secondary" onClick={logout}>
            Sign out
          </button>
        </div>
      </section>
    </div>
  );
}
