import { config } from 'zod';

// zod compiles object parsers with `new Function` when it may. The app's Content-Security-Policy
// (script-src 'self') refuses eval, so zod's probe was a CSP violation on every signed-in load:
// an issue in the browser's console, which cost Lighthouse's best practices (issue 20). Imported
// before any schema is used in the browser; the server keeps the compiled parsers.
config({ jitless: true });
