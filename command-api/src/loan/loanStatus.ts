/**
 * The loan status machine lives in @honeylend/contracts (loans/loanStatusRules.ts), so the admin
 * console offers exactly the moves the decider accepts. Re-exported here for the API's modules
 * that import it from the loan folder.
 */
export {
  BUILT_IN_LOAN_STATUSES,
  canChangeLoanStatus,
  closesApplication,
  isBuiltInLoanStatus,
  isDeletable,
  isUnderReview,
  type BuiltInLoanStatus,
} from '@honeylend/contracts';
