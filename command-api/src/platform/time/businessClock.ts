import type { Redis } from 'ioredis';
import { businessDateOf, daysBetween, type BusinessDate } from '@honeylend/contracts';

/**
 * Today's business date (Asia/Manila). In production the clock rules. Elsewhere a tester or a demo
 * may move it forward (POST /api/dev/business-date) so a loan lives through months in seconds; it
 * never moves back, and the real date wins once it catches up.
 */
export class BusinessClock {
  constructor(
    private readonly redis: Redis,
    private readonly overrideKey: string,
    private readonly now: () => Date,
    /** False in production: the override is neither read nor written. */
    readonly movable: boolean,
  ) {}

  /** The calendar's own business date, whatever was moved. */
  realToday(): BusinessDate {
    return businessDateOf(this.now().toISOString());
  }

  async today(): Promise<BusinessDate> {
    const real = this.realToday();
    if (!this.movable) return real;
    const moved = await this.redis.get(this.overrideKey);
    return moved && moved > real ? moved : real;
  }

  /**
   * The instant as the business calendar sees it: now, shifted by as many days as the business date
   * was moved ahead of the calendar (none in production). A loan applied for on a moved date is
   * dated on it, so its schedule starts from the business date, not from the calendar's.
   */
  async businessNow(): Promise<Date> {
    const now = this.now();
    const days = daysBetween(businessDateOf(now.toISOString()), await this.today());
    return new Date(now.getTime() + days * 86_400_000);
  }

  /** Moves the date forward (never back); answers the business date now in force. */
  async moveTo(date: BusinessDate): Promise<BusinessDate> {
    if (!this.movable) throw new Error('the business date follows the clock in production');
    // Only a later date replaces the one stored, so two callers racing end on the later of the two.
    await this.redis.eval("local current = redis.call('GET', KEYS[1]); if (not current) or ARGV[1] > current then redis.call('SET', KEYS[1], ARGV[1]) end; return 1", 1, this.overrideKey, date);
    return this.today();
  }
}
