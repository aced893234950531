/**
 * `npm run test:resilience -- --full` runs every check at the counts the issue names; CI and
 * `npm test` run the slow ones smaller so the suite stays within a CI run's time.
 */
export const FULL_RUN = process.env.RESILIENCE_FULL === '1';

/** The count for this run: `full` under --full, `quick` otherwise. */
export function scaled(quick: number, full: number): number {
  return FULL_RUN ? full : quick;
}
