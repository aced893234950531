export { createApp, type AppOptions } from './app.js';
export { startApiServer, type ApiServer, type ApiServerOptions } from './apiServer.js';
export { createLogger, type Logger, type LogLevel } from './platform/logging/logger.js';
// The name the logger factory had before pino; kept so code written against it still builds.
export { createLogger as createJsonLogger } from './platform/logging/logger.js';
export type { AppDeps as ApiDeps } from './app.js';
// The write side's building blocks, for tools that seed or repair through the same rules (tests, benchmarks).
export { handleCommand, loadState } from './platform/commands/commandHandler.js';
export { memberDecider, type MemberCommand } from './members/decide.js';
export { startVerificationWorker, type RunningVerificationWorker, type VerificationWorkerOptions } from './audit/jobs/verificationWorker.js';
export { startServicingJobs, type RunningServicingJobs, type ServicingJobsOptions } from './servicing/dayClose/servicingJobs.js';
export { closeBusinessDays, type DayCloseResult } from './servicing/dayClose/closeBusinessDays.js';
export { firstReminderRunOf, reminderCommands, reminderOpeningDays } from './servicing/reminders/reminderCommands.js';
export { signPayload } from './servicing/providerPayment.js';
// The mounted route table and each route's declared documentation: the API reference and the resilience checks read it.
export { routesOf, routeKey, type MountedRoute } from './platform/http/routeTable.js';
export { endpoint, endpointOf, type EndpointDoc, type FileAnswer } from './platform/http/endpoint.js';
export { openApiDocument, jsonSchemaOf } from './platform/openapi/openApiDocument.js';
export { lapseUnacceptedApprovals } from './servicing/dayClose/lapseApprovals.js';
export { lapseNotice } from './lending/lapsedApproval.js';
export { loanDecider, type LoanCommand } from './lending/decide.js';
export { companyDecider } from './company/companyDetails.js';
export { approvalDecider, approvalSettingsDecider } from './approvals/approval.js';
export { expireApprovals } from './approvals/expireApprovals.js';
// What `lending seed` writes the demo through: the same deciders and number sequences the routes use.
export { phoneReservationDecider } from './members/phoneReservation.js';
export { adminAccountDecider, adminUsernameDecider } from './staff/adminAccount.js';
export { allocateNumber } from './platform/sequence/allocateNumber.js';
export { hashPassword } from './platform/passwords/passwords.js';
export { receiptNumberOf } from './lending/decide.js';
