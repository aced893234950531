import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { MemberGreeting } from '../components/MemberGreeting';

export function WalletPage() {
  useDocumentTitle('Wallet');
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Wallet</h1>
      <MemberGreeting />
    </section>
  );
}
