import helmet from 'koa-helmet';

/**
 * Browser-side defences for everything this server answers: a strict Content-Security-Policy for
 * the web app (scripts only from this origin, no framing, no plugins), no MIME sniffing, and no
 * referrer leaking a URL (signed document links included) to another site.
 * Styles allow 'unsafe-inline' because the admin console's components (Ant Design) inject styles at
 * run time; scripts never do.
 */
export function securityHeaders() {
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
