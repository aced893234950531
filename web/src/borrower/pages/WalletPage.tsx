import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { MemberGreeting } from '../components/MemberGreeting';
import { PartnerBanks } from '../components/PartnerBanks';
import { BalanceCard } from '../wallet/BalanceCard';
import { LoanApplicationCard } from '../wallet/LoanApplicationCard';
import { LoanPreviewCard } from '../wallet/LoanPreviewCard';
import { WithdrawalHistory } from '../wallet/WithdrawalHistory';
import { WithdrawDialogs } from '../wallet/WithdrawDialogs';

/** Spec §2 wallet (/wallet). */
export function WalletPage() {
  useDocumentTitle('Wallet');
  return (
    <div className="page wallet">
      <header className="page__header">
        <h1 id="page-title">Wallet</h1>
        <MemberGreeting />
      </header>
      <div className="page__grid">
        <div className="page__column">
          <BalanceCard />
          <LoanApplicationCard />
          <LoanPreviewCard />
        </div>
        <div className="page__column">
          <WithdrawalHistory />
          <PartnerBanks />
        </div>
      </div>
      <WithdrawDialogs />
    </div>
  );
}
