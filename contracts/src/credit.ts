/** Spec §3 credit score tiers, shown as a badge with stars. */
export interface CreditTier {
  label: 'Bad Credit' | 'Average Credit' | 'Good Credit' | 'Perfect Credit' | 'Unknown';
  stars: 0 | 1 | 2 | 3 | 5;
}

export const DEFAULT_CREDIT_SCORE = 500;

export function creditTierOf(score: number): CreditTier {
  if (!Number.isInteger(score) || score < 0 || score > 1000) return { label: 'Unknown', stars: 0 };
  if (score <= 499) return { label: 'Bad Credit', stars: 1 };
  if (score <= 599) return { label: 'Average Credit', stars: 2 };
  if (score <= 749) return { label: 'Good Credit', stars: 3 };
  return { label: 'Perfect Credit', stars: 5 };
}
