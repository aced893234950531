const BAR_WIDTH = 30;

/** `[#####     ]  50% <label>`: `share` is 0…1. */
export function progressBar(share: number, label: string): string {
  const bounded = Math.min(1, Math.max(0, share));
  const filled = Math.round(bounded * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}] ${(bounded * 100).toFixed(0).padStart(3)}% ${label}`;
}

/**
 * Redraws one progress line on stderr at most every 100 ms, only on a terminal (a log file or a
 * pipe gets the summary alone). `finish` draws the last state and ends the line.
 */
export function terminalProgress(stream: NodeJS.WriteStream = process.stderr) {
  const interactive = stream.isTTY === true;
  let lastDrawn = 0;
  let drawn = false;
  return {
    update(share: number, label: string): void {
      const now = Date.now();
      if (!interactive || now - lastDrawn < 100) return;
      lastDrawn = now;
      drawn = true;
      stream.write(`\r${progressBar(share, label)}`);
    },
    finish(share: number, label: string): void {
      if (!interactive) return;
      if (drawn || share > 0) stream.write(`\r${progressBar(share, label)}\n`);
    },
  };
}
