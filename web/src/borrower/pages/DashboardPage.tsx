import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { MemberGreeting } from '../components/MemberGreeting';

export function DashboardPage() {
  useDocumentTitle('Dashboard');
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Dashboard</h1>
      <MemberGreeting />
    </section>
  );
}
