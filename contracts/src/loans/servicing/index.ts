export * from './businessDate.js';
export * from './delinquency.js';
export * from './loanAccount.js';
export * from './position.js';
export * from './dayClose.js';
export * from './reminders.js';
export * from './openAccount.js';
export * from './servicingAnswer.js';
