import { useNavigate } from 'react-router-dom';
import { Dialog } from '../components/Dialog';

/** Spec §2 (profile): the contract and schedule need a loan; this offers to apply instead. */
export function NoLoanDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  return (
    <Dialog
      open={open}
      title="No Loan Application"
      description="You don't have a loan application yet. Apply for a loan to see its contract and payment schedule."
      onClose={onClose}
      actions={
        <>
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              onClose();
              // The dashboard opens the application form on arrival.
              void navigate('/loan-app', { state: { openApplication: true } });
            }}
          >
            Apply now
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
        </>
      }
    />
  );
}
