import { describe, expect, it } from 'vitest';
import { given } from '../platform/commands/testing/givenWhenThen.js';
import { companyDecider, type CompanyEvent } from './companyDetails.js';
import { companyFromEnvironment } from './companyFromEnvironment.js';

const details = {
  companyName: 'Honeylend Lending Corporation',
  secRegistrationNumber: 'CS201912345',
  certificateOfAuthorityNumber: '3021',
  dateRegistered: '2019-08-14',
  status: 'Registered',
  address: '12F Ayala Tower One, Ayala Avenue, Makati City',
  contact: 'support@honeylend.ph',
};
const set = (at: string, value = details): CompanyEvent => ({ type: 'CompanyDetailsSet', data: { details: value, setAt: at } });

describe('the company details (SEC MC 19 s.2019)', () => {
  it('when the main admin sets them, then they are recorded; the same again records nothing', () => {
    given(companyDecider, [])
      .when({ type: 'SetCompanyDetails', details, now: '2026-11-25T01:00:00.000Z' })
      .then([set('2026-11-25T01:00:00.000Z')]);
    given(companyDecider, [set('2026-11-25T01:00:00.000Z')])
      .when({ type: 'SetCompanyDetails', details, now: '2026-11-25T02:00:00.000Z' })
      .then([]);
    const moved = { ...details, address: '8F Net Park, 5th Avenue, Taguig City' };
    given(companyDecider, [set('2026-11-25T01:00:00.000Z')])
      .when({ type: 'SetCompanyDetails', details: moved, now: '2026-11-25T02:00:00.000Z' })
      .then([set('2026-11-25T02:00:00.000Z', moved)]);
  });

  it('when the environment seeds them on a start, then only a log without details takes them', () => {
    given(companyDecider, [])
      .when({ type: 'SeedCompanyDetails', details, now: '2026-11-25T01:00:00.000Z' })
      .then([set('2026-11-25T01:00:00.000Z')]);
    const changed = { ...details, contact: '+63 2 8888 0000' };
    given(companyDecider, [set('2026-11-25T01:00:00.000Z', changed)])
      .when({ type: 'SeedCompanyDetails', details, now: '2026-11-26T01:00:00.000Z' })
      .then([]);
  });

  it('reads all seven from the environment, none when none is set, and reports a partial or bad set by variable name', () => {
    const env = {
      COMPANY_NAME: details.companyName,
      COMPANY_SEC_REGISTRATION_NUMBER: details.secRegistrationNumber,
      COMPANY_CA_NUMBER: details.certificateOfAuthorityNumber,
      COMPANY_DATE_REGISTERED: details.dateRegistered,
      COMPANY_STATUS: details.status,
      COMPANY_ADDRESS: details.address,
      COMPANY_CONTACT: details.contact,
    };
    expect(companyFromEnvironment(env)).toEqual({ details, problem: null });
    expect(companyFromEnvironment({})).toEqual({ details: null, problem: null });
    const partial = companyFromEnvironment({ ...env, COMPANY_CA_NUMBER: ' ', COMPANY_DATE_REGISTERED: '2019-02-31x' });
    expect(partial.details).toBeNull();
    expect(partial.problem).toContain('COMPANY_CA_NUMBER');
    expect(partial.problem).toContain('COMPANY_DATE_REGISTERED');
  });
});
