import { useSignedInUser } from '../stores/session';

export function MemberGreeting() {
  const user = useSignedInUser();
  return <p className="member-greeting">Hello, {user.phone}</p>;
}
