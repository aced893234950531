import { creditTierOf, DEFAULT_CREDIT_SCORE } from '@honeylend/contracts';
import { StarIcon } from './icons';

const MAX_STARS = 5;

/** Spec §3: the credit score with its tier's stars and label (0–499 Bad … 750–1000 Perfect; else Unknown). */
export function CreditTierBadge({ score }: { score: number | null | undefined }) {
  const shown = typeof score === 'number' ? score : DEFAULT_CREDIT_SCORE;
  const tier = creditTierOf(shown);
  const tone = tier.label.split(' ')[0].toLowerCase();
  return (
    <div className={`credit-badge credit-badge--${tone}`} data-testid="credit-badge">
      <p className="credit-badge__caption">Credit score</p>
      <p className="credit-badge__score">{shown}</p>
      <p className="credit-badge__stars" role="img" aria-label={`${tier.stars} of ${MAX_STARS} stars`}>
        {Array.from({ length: MAX_STARS }, (_, index) => (
          <StarIcon key={index} filled={index < tier.stars} />
        ))}
      </p>
      <p className="credit-badge__tier">{tier.label}</p>
    </div>
  );
}
