import { daysBetween, type BusinessDateAnswer } from '@honeylend/contracts';
import { apiRequest } from '../shared/api';

const DAY_MS = 86_400_000;

/**
 * How far the server's business clock runs ahead of the calendar: outside production the business
 * date may be moved forward, and the server dates what it records on it. Nothing where the date
 * cannot be moved (production answers no business date) or cannot be read: the calendar then rules.
 */
export async function businessShiftMs(): Promise<number> {
  try {
    const { date, calendarDate } = await apiRequest<BusinessDateAnswer>('/api/dev/business-date');
    return Math.max(0, daysBetween(calendarDate, date)) * DAY_MS;
  } catch {
    return 0;
  }
}
