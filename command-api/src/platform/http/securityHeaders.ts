import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Next } from 'koa';
import helmet from 'helmet';

/**
 * Browser-side defences for everything this server answers: a strict Content-Security-Policy for
 * the web app (scripts only from this origin, no framing, no plugins), no MIME sniffing, and no
 * referrer leaking a URL (signed document links included) to another site.
 * Styles allow 'unsafe-inline' because the admin console's components (Ant Design) inject styles at
 * run time; scripts never do.
 */
export function securityHeaders() {
  const headers = helmetHeaders();
  return async (ctx: Context, next: Next) => {
    for (const [name, value] of headers) ctx.res.setHeader(name, value);
    await next();
  };
}

/**
 * The headers helmet sets for this policy, found once by running it against a recording response:
 * they depend on the policy alone, and helmet building and checking them again for every request
 * was a few percent of a read's CPU. Helmet stays the one that decides them.
 */
function helmetHeaders(): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, value]),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  let called = false;
  helmetPolicy()({} as IncomingMessage, recorder, () => {
    called = true;
  });
  if (!called) throw new Error('helmet did not set its headers synchronously');
  return headers;
}

function helmetPolicy() {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  });
}
