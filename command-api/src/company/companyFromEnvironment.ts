import { companyDetailsSchema, streams, type CompanyDetails } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import { handleCommand } from '../platform/commands/commandHandler.js';
import type { Logger } from '../platform/logging/logger.js';
import { companyDecider } from './companyDetails.js';

/** The environment variables that seed the company details on the first start, by field. */
export const COMPANY_ENVIRONMENT: Record<keyof CompanyDetails, string> = {
  companyName: 'COMPANY_NAME',
  secRegistrationNumber: 'COMPANY_SEC_REGISTRATION_NUMBER',
  certificateOfAuthorityNumber: 'COMPANY_CA_NUMBER',
  dateRegistered: 'COMPANY_DATE_REGISTERED',
  status: 'COMPANY_STATUS',
  address: 'COMPANY_ADDRESS',
  contact: 'COMPANY_CONTACT',
};

/**
 * The details the environment names, or null when it names none. Some but not all, or a bad value,
 * is a mistake the operator must hear about: it is reported and nothing is seeded.
 */
export function companyFromEnvironment(env: Readonly<Record<string, string | undefined>>): { details: CompanyDetails | null; problem: string | null } {
  const entries = Object.entries(COMPANY_ENVIRONMENT).map(([field, name]) => [field, env[name]?.trim() || undefined] as const);
  if (entries.every(([, value]) => value === undefined)) return { details: null, problem: null };
  const parsed = companyDetailsSchema.safeParse(Object.fromEntries(entries));
  if (parsed.success) return { details: parsed.data, problem: null };
  const fields = parsed.error.issues.map((issue) => COMPANY_ENVIRONMENT[issue.path[0] as keyof CompanyDetails] ?? String(issue.path[0]));
  return { details: null, problem: `the company details in the environment are incomplete or invalid (${[...new Set(fields)].join(', ')}); none were set` };
}

/** On start: records the environment's company details unless the log already holds some. */
export async function seedCompanyDetails(store: EventStore, env: Readonly<Record<string, string | undefined>>, logger: Logger, now = new Date()): Promise<void> {
  const { details, problem } = companyFromEnvironment(env);
  if (problem) logger.warn(problem);
  if (!details) return;
  const result = await handleCommand(store, streams.company, companyDecider, { type: 'SeedCompanyDetails', details, now: now.toISOString() }, { actorId: 'bootstrap' });
  if (result.events.length > 0) logger.info('company details set from the environment', { companyName: details.companyName });
}
