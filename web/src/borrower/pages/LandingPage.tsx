import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { CheckIcon } from '../components/icons';
import { BannerCarousel } from '../landing/BannerCarousel';

const REGISTER_PATH = '/app-login?register=true';
const LOGIN_PATH = '/app-login';

const BENEFITS = ['Flexible time management', 'Online and walk-in process', 'No hassle processing fees', 'Repay in installments or all at once'];

const FEATURES = [
  { title: 'Quick and simple process', text: 'Register with your phone number and apply online.' },
  { title: 'Loan limit up to 4,000,000 peso', text: 'Borrow what you need, from 80,000 PHP.' },
  { title: 'Straight to your wallet', text: 'Your loan reaches your wallet the moment you accept its Disclosure Statement; withdraw it to your bank from there.' },
];

const PAYOUT_METHODS = [
  { name: 'GCash', badge: 'G' },
  { name: 'Maya', badge: 'M' },
  { name: 'Bank transfer', badge: '₱' },
];

export function LandingPage() {
  useDocumentTitle('Effortless Borrowing');
  return (
    <div className="landing">
      <section className="landing__hero" aria-labelledby="landing-title">
        <h1 id="landing-title" className="landing__headline">
          Effortless Borrowing, Smooth as Honey!
        </h1>
        <p className="landing__pitch">Access up to 4,000,000 PHP now!</p>
        <ul className="benefits">
          {BENEFITS.map((benefit) => (
            <li key={benefit}>
              <span className="benefits__tick">
                <CheckIcon size={16} />
              </span>
              {benefit}
            </li>
          ))}
        </ul>
        <div className="landing__actions">
          <Link className="button button--primary button--block" to={REGISTER_PATH}>
            Register <span className="button__hint">(new client)</span>
          </Link>
          <Link className="button button--secondary button--block" to={LOGIN_PATH}>
            Login
          </Link>
        </div>
      </section>

      <BannerCarousel />

      <section className="card teaser" aria-labelledby="teaser-title">
        <h2 id="teaser-title" className="teaser__label">
          Loan amount
        </h2>
        <p className="teaser__range">
          <span>80,000 PHP</span>
          <span className="teaser__to">to</span>
          <span>4,000,000 PHP</span>
        </p>
        <Link className="button button--primary button--block" to={REGISTER_PATH}>
          Request now
        </Link>
      </section>

      <section className="features" aria-label="Why Honeylend">
        {FEATURES.map((feature) => (
          <article key={feature.title} className="feature">
            <h2 className="feature__title">{feature.title}</h2>
            <p className="feature__text">{feature.text}</p>
          </article>
        ))}
      </section>

      <section className="card payouts" aria-labelledby="payouts-title">
        <h2 id="payouts-title" className="payouts__title">
          Receive your money by
        </h2>
        <ul className="payouts__list">
          {PAYOUT_METHODS.map((method) => (
            <li key={method.name} className="payouts__method">
              <span className="payouts__badge" aria-hidden="true">
                {method.badge}
              </span>
              {method.name}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
