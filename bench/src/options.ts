/** How big and how long each scenario is: the full run (the figures) or the quick one (a smoke run under 2 minutes). */
export interface BenchOptions {
  quick: boolean;
  /** Adds `--cpu-prof` to every process the bench starts (profiles land next to the results). */
  profile: boolean;
  /** Scenario names to run (default: all). */
  only: Set<string> | null;
  members: number;
  /** Seconds of load per HTTP measurement (baseline, each read endpoint, each command run, push). */
  durationSeconds: number;
  readConnections: number;
  commandConnections: number;
  /** Sockets held in scenario 5, and how many connect at once. */
  sockets: number;
  socketBatch: number;
  otpRequests: number;
  otpConcurrency: number;
  /** Log sizes for the replay scenario, smallest first; the last is compared with the first. */
  replaySizes: number[];
  /** Members whose lives are interleaved at any moment in the replay log. */
  replayActiveMembers: number;
  /** Events in the log `lending audit verify` and the book fold (issue 16: 1,000,000). */
  auditEvents: number;
  /** Seconds of each append-ceiling run with and without the hash chain, and how many of each. */
  appendChainSeconds: number;
  appendChainRounds: number;
  /** Active loans the day close scenario closes one business day for. */
  dayCloseLoans: number;
  /** Wallet repayments in flight at once. */
  repaymentConnections: number;
  /** Wallet repayments a second in the open loop (issue 15's target). */
  repaymentOpenRate: number;
  /** Open loop (issue 19): commands offered per second, for durationSeconds. */
  openCommandRate: number;
  /** Open loop: OTP requests per second, and for how long. */
  otpOpenRate: number;
  otpOpenSeconds: number;
  /** API processes the scale-out scenario runs the same load against, one after the other. */
  apiProcesses: number[];
  /** Seconds of each read and command window in the logging-and-metrics comparison (two of each a cycle). */
  observabilitySeconds: number;
  /** Cycles of the logging-cost scenario (two runs each: each API process on once). */
  observabilityCycles: number;
  /** Seconds of the same load, not measured, before each read and command window of that scenario (its roles have just been restarted). */
  observabilityWarmupSeconds: number;
}

export const SCENARIOS = ['baseline', 'read', 'commands-pglite', 'commands-postgres', 'push', 'sockets', 'otp', 'api-scale', 'observability', 'replay', 'repayments', 'day-close', 'append-chain', 'audit'] as const;

export function parseOptions(argv: string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const profile = argv.includes('--profile');
  const onlyArg = argv.find((arg) => arg.startsWith('--only='));
  const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',').filter(Boolean)) : null;
  for (const name of only ?? []) {
    if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`unknown scenario "${name}"; choose from ${SCENARIOS.join(', ')}`);
  }
  for (const arg of argv) {
    if (!['--quick', '--profile'].includes(arg) && !arg.startsWith('--only=') && !arg.startsWith('--api-processes=') && !arg.startsWith('--observability-cycles='))
      throw new Error(`unknown option ${arg} (use --quick, --profile, --only=a,b, --api-processes=1,2,3, --observability-cycles=N)`);
  }
  // A longer measurement of logging's cost when the host's noise is larger than the effect (each cycle is two runs, each process on once).
  const cyclesArg = argv.find((arg) => arg.startsWith('--observability-cycles='));
  const cycles = cyclesArg ? Number(cyclesArg.slice('--observability-cycles='.length)) : undefined;
  if (cycles !== undefined && (!Number.isInteger(cycles) || cycles < 1 || cycles > 20)) throw new Error('--observability-cycles takes a whole number from 1 to 20');
  const processesArg = argv.find((arg) => arg.startsWith('--api-processes='));
  const apiProcesses = processesArg ? processesArg.slice('--api-processes='.length).split(',').map(Number) : [1, 2, 3];
  if (apiProcesses.length === 0 || apiProcesses.some((n) => !Number.isInteger(n) || n < 1 || n > 8)) throw new Error('--api-processes takes counts from 1 to 8, e.g. --api-processes=1,2,3');
  const common = { quick, profile, only, readConnections: 100, commandConnections: 64, otpConcurrency: 4, repaymentConnections: 16, repaymentOpenRate: 500, openCommandRate: 1_000, otpOpenRate: 20, apiProcesses };
  return quick
    ? {
        ...common,
        members: 200,
        durationSeconds: 5,
        sockets: 1_000,
        socketBatch: 250,
        otpRequests: 50,
        replaySizes: [10_000, 50_000],
        replayActiveMembers: 200,
        auditEvents: 50_000,
        appendChainSeconds: 2,
        appendChainRounds: 2,
        dayCloseLoans: 10_000,
        otpOpenSeconds: 5,
        observabilitySeconds: 5,
        observabilityCycles: cycles ?? 1,
        observabilityWarmupSeconds: 1,
      }
    : {
        ...common,
        members: 1_000,
        durationSeconds: 20,
        sockets: 20_000,
        socketBatch: 500,
        otpRequests: 300,
        replaySizes: [100_000, 1_000_000],
        replayActiveMembers: 500,
        auditEvents: 1_000_000,
        appendChainSeconds: 5,
        appendChainRounds: 3,
        dayCloseLoans: 100_000,
        otpOpenSeconds: 30,
        observabilitySeconds: 10,
        // Three cycles (6 runs, each a read and a command window of 10 s on both processes at once).
        observabilityCycles: cycles ?? 3,
        observabilityWarmupSeconds: 3,
      };
}

export function wants(options: BenchOptions, scenario: (typeof SCENARIOS)[number]): boolean {
  return options.only === null || options.only.has(scenario);
}
