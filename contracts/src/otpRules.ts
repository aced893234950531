/** One-time codes and the withdrawal hold (design §7). No zod here: the borrower app's first load imports these. */

export const OTP_CODE_LENGTH = 6;
export const OTP_TTL_MS = 5 * 60_000;
export const OTP_MAX_ATTEMPTS = 5;
/** At most this many codes per member per window, so nobody can flood a phone or farm codes. */
export const OTP_ISSUE_LIMIT = 3;
export const OTP_ISSUE_WINDOW_MS = 15 * 60_000;
/** Wrong codes (withdrawal and bank change together) a member may type in one Manila day before withdrawals freeze. */
export const OTP_DAILY_WRONG_LIMIT = 15;
/** How long new withdrawals are held after a bank-account or phone change, or too many wrong codes. */
export const WITHDRAWAL_HOLD_MS = 24 * 3600_000;
