import type { DelinquencyBucket } from '@honeylend/contracts';

/** One colour per delinquency bucket, from green (current) to red (90+). */
export const BUCKET_COLOURS: Record<DelinquencyBucket, string> = {
  current: 'green',
  '1-30': 'gold',
  '31-60': 'orange',
  '61-90': 'volcano',
  '90+': 'red',
};
