#!/usr/bin/env node
// The compiled CLI lives in cli/dist; `npm run build` (or `npm start`) produces it.
import { main } from '../dist/main.js';

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`lending: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
