import { useNavigate } from 'react-router-dom';
import { Dialog } from '../components/Dialog';

/**
 * Spec §2: an unverified member pressing Quick loan is sent to verify first. `phoneOnly`: the
 * profile and documents are done, and the last step is confirming the phone number (issue 14).
 */
export function VerificationRequiredDialog({ open, onClose, phoneOnly = false }: { open: boolean; onClose: () => void; phoneOnly?: boolean }) {
  const navigate = useNavigate();
  return (
    <Dialog
      open={open}
      title={phoneOnly ? 'Confirm Your Phone' : 'Verification Required'}
      description={phoneOnly ? 'One more step before applying for a loan: confirm your phone number with the code we text you.' : 'You need to complete your account verification before applying for a loan.'}
      onClose={onClose}
      actions={
        <>
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              onClose();
              void navigate('/profile');
            }}
          >
            Verify now
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
        </>
      }
    />
  );
}
