/**
 * Delinquency buckets by days past due, as loan-management systems report arrears (Apache
 * Fineract's and Frappe Lending's aging buckets): current, 1–30, 31–60, 61–90, over 90.
 */
export const DELINQUENCY_BUCKETS = ['current', '1-30', '31-60', '61-90', '90+'] as const;
export type DelinquencyBucket = (typeof DELINQUENCY_BUCKETS)[number];

export function delinquencyBucketOf(daysPastDue: number): DelinquencyBucket {
  if (daysPastDue <= 0) return 'current';
  if (daysPastDue <= 30) return '1-30';
  if (daysPastDue <= 60) return '31-60';
  if (daysPastDue <= 90) return '61-90';
  return '90+';
}

/** Any bucket but current: the loan has an instalment past its due date. */
export function isPastDueBucket(bucket: DelinquencyBucket): boolean {
  return bucket !== 'current';
}
