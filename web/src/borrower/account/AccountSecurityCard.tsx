import { useState } from 'react';
import { toast } from '../../shared/toast/toastStore';
import { Dialog } from '../components/Dialog';
import { useSignedInUser } from '../stores/session';
import { signOutEverywhere } from './accountSecurity';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { PhoneConfirmDialog } from './PhoneConfirmDialog';

/** Profile: the phone number's confirmation, change password, and signing out on every device. */
export function AccountSecurityCard() {
  const user = useSignedInUser();
  const [dialog, setDialog] = useState<'none' | 'phone' | 'password' | 'everywhere'>('none');
  const [signingOut, setSigningOut] = useState(false);
  const close = () => setDialog('none');

  async function everywhere() {
    setSigningOut(true);
    try {
      await signOutEverywhere();
    } catch (error) {
      setSigningOut(false);
      toast({ variant: 'destructive', title: 'Not signed out', description: (error instanceof Error && error.message) || 'Please try again' });
    }
  }

  return (
    <section className="card" aria-labelledby="account-security-title">
      <div className="card__header">
        <h2 id="account-security-title" className="card__title">
          Account security
        </h2>
        {user.phoneVerified ? <span className="status-badge status-badge--good">Phone confirmed</span> : <span className="status-badge status-badge--warn">Phone not confirmed</span>}
      </div>
      {!user.phoneVerified && <p className="muted">Confirm your phone number before your first loan application: we text you a code.</p>}
      <div className="button-row">
        {!user.phoneVerified && (
          <button type="button" className="button button--primary" onClick={() => setDialog('phone')}>
            Confirm phone
          </button>
        )}
        <button type="button" className="button button--secondary" onClick={() => setDialog('password')}>
          Change password
        </button>
        <button type="button" className="button button--secondary" onClick={() => setDialog('everywhere')}>
          Sign out everywhere
        </button>
      </div>
      <PhoneConfirmDialog open={dialog === 'phone'} onClose={close} />
      <ChangePasswordDialog open={dialog === 'password'} onClose={close} />
      <Dialog
        open={dialog === 'everywhere'}
        title="Sign out everywhere?"
        description="Every device signed in to your account, this one included, is signed out at once."
        onClose={close}
        actions={
          <>
            <button type="button" className="button button--primary" onClick={() => void everywhere()} disabled={signingOut} aria-busy={signingOut || undefined}>
              {signingOut ? 'Please wait...' : 'Sign out everywhere'}
            </button>
            <button type="button" className="button button--secondary" onClick={close}>
              Cancel
            </button>
          </>
        }
      />
    </section>
  );
}
