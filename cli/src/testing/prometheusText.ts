/** One metric family of a Prometheus text exposition: its type and every sample line under it. */
export interface MetricFamily {
  name: string;
  type: string;
  /** `name{labels}` → value, for each sample (a histogram's _bucket, _sum and _count lines included). */
  samples: Map<string, number>;
}

/** Parses the text format GET /metrics answers (the families announced by `# TYPE` lines). */
export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  let current: MetricFamily | null = null;
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) {
      current = { name: type[1], type: type[2], samples: new Map() };
      families.set(current.name, current);
      continue;
    }
    if (line === '' || line.startsWith('#') || !current) continue;
    const sample = /^(\S+?(?:\{.*\})?) (\S+)(?: \d+)?$/.exec(line);
    if (sample) current.samples.set(sample[1], Number(sample[2]));
  }
  return families;
}

/** Every metric name a family's samples can be queried by (a histogram's _bucket, _sum, _count). */
export function queryableNames(family: MetricFamily): string[] {
  if (family.type === 'histogram') return [`${family.name}_bucket`, `${family.name}_sum`, `${family.name}_count`];
  if (family.type === 'summary') return [family.name, `${family.name}_sum`, `${family.name}_count`];
  return [family.name];
}
