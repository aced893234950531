import { useSignedInUser } from '../stores/session';

/** The name a greeting uses: the first of the member's names, or their phone until they have given one. */
export function greetingName(user: { fullName: string; phone: string }): string {
  return user.fullName.trim().split(/\s+/)[0] || user.phone;
}

export function MemberGreeting() {
  const user = useSignedInUser();
  return <p className="member-greeting">Hello, {greetingName(user)}</p>;
}
