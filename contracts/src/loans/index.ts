export * from './loanRules.js';
export * from './manilaCalendar.js';
export * from './effectiveRate.js';
export * from './repayment.js';
export * from './applicationRules.js';
export * from './loanStatusRules.js';
export * from './servicing/index.js';
export * from './disclosureStatement.js';
