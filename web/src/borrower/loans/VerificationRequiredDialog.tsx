import { useNavigate } from 'react-router-dom';
import { Dialog } from '../components/Dialog';

/** Spec §2: an unverified member pressing Quick loan is sent to verify first. */
export function VerificationRequiredDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  return (
    <Dialog
      open={open}
      title="Verification Required"
      description="You need to complete your account verification before applying for a loan."
      onClose={onClose}
      actions={
        <>
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              onClose();
              navigate('/profile');
            }}
          >
            VERIFY NOW
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
        </>
      }
    />
  );
}
