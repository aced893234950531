// The signed-in borrower's first screen as one chunk: the dashboard and, through it, the stores
// and dialogs it uses. The landing and sign-in pages never load it (issue 20). The wallet, the
// profile and a loan's own page are chunks of their own (walletScreen.ts, profileScreen.ts,
// pages/LoanPage), fetched once the dashboard is drawn, so the dashboard's first load carries none
// of their code. Nor does it carry zod: the forms that validate with it (the loan application,
// the wallet's, the profile's) come with their own chunks, each importing shared/zodWithoutEval.
export { DashboardPage } from './pages/DashboardPage';
