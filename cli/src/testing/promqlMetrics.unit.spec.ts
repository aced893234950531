import { describe, expect, it } from 'vitest';
import { metricsQueriedBy } from './promqlMetrics.js';

describe('metricsQueriedBy', () => {
  it('finds the metrics of an expression and nothing else: not functions, labels, ranges, grouping or numbers', () => {
    expect(metricsQueriedBy('histogram_quantile(0.99, sum by (le, route) (rate(honeylend_http_request_duration_seconds_bucket{status=~"5..",route!="web"}[$__rate_interval])))')).toEqual([
      'honeylend_http_request_duration_seconds_bucket',
    ]);
    expect(metricsQueriedBy('sum(rate(a_total[5m])) / ignoring(code) sum without (instance) (b_count offset 5m) > bool 0')).toEqual(['a_total', 'b_count']);
    expect(metricsQueriedBy('max by (projection) (honeylend_projection_lag_events)')).toEqual(['honeylend_projection_lag_events']);
  });
});
