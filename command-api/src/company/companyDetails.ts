import type { CompanyDetails, EventOf } from '@honeylend/contracts';
import type { Decider } from '../platform/commands/decider.js';

/** Stream settings-company: the lender's legal identity (SEC MC 19 s.2019). */
export type CompanyEvent = EventOf<'CompanyDetailsSet'>;

export interface CompanyState {
  details: CompanyDetails | null;
}

export type CompanyCommand =
  /** The main admin sets the details (Settings → Company). */
  | { type: 'SetCompanyDetails'; details: CompanyDetails; now: string }
  /** The first start seeds them from the environment; once any are recorded, the log wins over the environment. */
  | { type: 'SeedCompanyDetails'; details: CompanyDetails; now: string };

const sameDetails = (a: CompanyDetails, b: CompanyDetails) => (Object.keys(a) as (keyof CompanyDetails)[]).every((key) => a[key] === b[key]);

export const companyDecider: Decider<CompanyState, CompanyCommand, CompanyEvent> = {
  initialState: () => ({ details: null }),
  evolve: (_state, event) => ({ details: event.data.details }),
  decide: (command, state) => {
    switch (command.type) {
      case 'SetCompanyDetails':
        // The same details again (a retry, or a save without changes): nothing to record.
        if (state.details && sameDetails(state.details, command.details)) return [];
        return [{ type: 'CompanyDetailsSet', data: { details: command.details, setAt: command.now } }];
      case 'SeedCompanyDetails':
        if (state.details) return [];
        return [{ type: 'CompanyDetailsSet', data: { details: command.details, setAt: command.now } }];
    }
  },
};
