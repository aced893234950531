import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * An <img> cannot send a bearer header, so document images are fetched through short-lived
 * URLs signed with an HMAC over the file id and the expiry. Every profile answer issues fresh
 * ones; a leaked URL stops working within `ttlSeconds`.
 */
/** URLs remembered at most, one per file (the oldest goes first). */
const URLS_KEPT = 10_000;

export class SignedFileUrls {
  private readonly key: Buffer;
  /**
   * The last URL issued for each file: within the same second it is the very same text (same file,
   * same expiry), and a profile read by many requests a second signed its three documents for each.
   */
  private readonly issued = new Map<string, { expires: number; url: string }>();

  constructor(
    secret: string,
    private readonly ttlSeconds = 600,
  ) {
    // A key of its own, derived from the server secret, so a file signature can never pass as anything else.
    this.key = createHmac('sha256', secret).update('honeylend:file-urls').digest();
  }

  private signature(fileId: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${fileId}.${expires}`).digest('base64url');
  }

  urlFor(fileId: string, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + this.ttlSeconds;
    const last = this.issued.get(fileId);
    if (last?.expires === expires) return last.url;
    const url = `/api/files/${fileId}?expires=${expires}&sig=${this.signature(fileId, expires)}`;
    if (last) this.issued.delete(fileId);
    else if (this.issued.size >= URLS_KEPT) this.issued.delete(this.issued.keys().next().value!);
    this.issued.set(fileId, { expires, url });
    return url;
  }

  isValid(fileId: string, expires: string | undefined, sig: string | undefined, now = Date.now()): boolean {
    if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return false;
    if (Number(expires) * 1000 < now) return false;
    const expected = Buffer.from(this.signature(fileId, Number(expires)));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

// Where a document URL's file id is found is a rule of the request's field (contracts' documentUrlField).
export { fileIdFromUrl } from '@honeylend/contracts';
