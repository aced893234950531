import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Uploaded documents on disk under UPLOAD_DIR, outside the web root, each under its random
 * file id (never a name the client chose, so no `../` can reach anywhere else).
 */
export class FileStore {
  constructor(private readonly dir: string) {}

  private pathOf(fileId: string): string {
    if (!UUID.test(fileId)) throw new Error('not a file id');
    return join(this.dir, fileId);
  }

  async save(fileId: string, bytes: Uint8Array): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFile(this.pathOf(fileId), bytes, { mode: 0o600, flag: 'wx' });
  }

  async open(fileId: string): Promise<{ stream: ReadStream; size: number } | null> {
    try {
      const path = this.pathOf(fileId);
      const info = await stat(path);
      return { stream: createReadStream(path), size: info.size };
    } catch {
      return null;
    }
  }
}
