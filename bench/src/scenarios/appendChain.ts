import type { RunContext } from '../context.js';
import { appendCeilingScenario, type AppendCeilingResult } from './appendCeiling.js';

export interface AppendChainResult {
  withChain: AppendCeilingResult[];
  withoutChain: AppendCeilingResult[];
  /** Mean appends/s with the chain ÷ without it. */
  ratio: number;
}

const mean = (runs: AppendCeilingResult[]) => runs.reduce((sum, run) => sum + run.appendsPerSecond, 0) / runs.length;

/**
 * What the hash chain costs an append (issue 16): the append-ceiling scenario with and without
 * the chain, alternated `rounds` times in the same run (each in a fresh schema) so the shared
 * machine's drift falls on both sides alike.
 */
export async function appendChainScenario(ctx: RunContext, { concurrency, seconds, rounds }: { concurrency: number; seconds: number; rounds: number }): Promise<AppendChainResult> {
  const withChain: AppendCeilingResult[] = [];
  const withoutChain: AppendCeilingResult[] = [];
  for (let round = 0; round < rounds; round++) {
    if (ctx.interrupt.signal.aborted) throw new Error('interrupted');
    withoutChain.push(await appendCeilingScenario(`${ctx.postgresUrl}?schema=${ctx.schemaPrefix}_plain_${round}`, { concurrency, seconds, hashChain: false }));
    withChain.push(await appendCeilingScenario(`${ctx.postgresUrl}?schema=${ctx.schemaPrefix}_chain_${round}`, { concurrency, seconds, hashChain: true }));
  }
  return { withChain, withoutChain, ratio: mean(withChain) / mean(withoutChain) };
}
