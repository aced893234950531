// The wallet screen as a chunk of its own (issue 20: the dashboard's first load does not carry it);
// fetched in the background once the signed-in app is there. zod runs without eval here too.
import '../shared/zodWithoutEval';
export { WalletPage } from './pages/WalletPage';
