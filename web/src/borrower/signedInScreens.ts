// The signed-in borrower app as one chunk: the member screens and, through them, the stores,
// dialogs and validation they use. The landing and sign-in pages never load it (issue 20).
export { DashboardPage } from './pages/DashboardPage';
export { LoanPage } from './pages/LoanPage';
export { ProfilePage } from './pages/ProfilePage';
export { WalletPage } from './pages/WalletPage';
