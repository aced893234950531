import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { MemberGreeting } from '../components/MemberGreeting';

export function ProfilePage() {
  useDocumentTitle('Profile');
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Profile</h1>
      <MemberGreeting />
    </section>
  );
}
