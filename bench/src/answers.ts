import type { AdminAnswer, BusinessDateAnswer } from '@honeylend/contracts';

// The answers the bench reads that the contracts do not name (the API's answer schemas state them).

/** POST /api/auth/login and POST /api/auth/admin-login, signed in. */
export interface SignedInAnswer<User> {
  success: true;
  token: string;
  user: User | null;
}

export type AdminSignedInAnswer = SignedInAnswer<AdminAnswer>;

/** POST /api/dev/business-date: the date now in force, and what the day close it ran did. */
export interface MovedBusinessDateAnswer extends BusinessDateAnswer {
  closed: { loans: number; changed: number; events: number };
  remindersSent: number;
}
