// The signed-in borrower app as one chunk: the member screens and, through them, the stores,
// dialogs and validation they use. The landing and sign-in pages never load it (issue 20); a
// loan's own page (reached from the wallet) is a chunk of its own.
import '../shared/zodWithoutEval';
export { DashboardPage } from './pages/DashboardPage';
export { ProfilePage } from './pages/ProfilePage';
export { WalletPage } from './pages/WalletPage';
