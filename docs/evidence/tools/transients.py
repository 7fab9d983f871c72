#!/usr/bin/env python3
"""Where a round's P99 comes from: per round, the two worst seconds (P99 of all sends) from broker 1's unfencing to
the end of the window, each placed against the unfencing and against the moment broker 1 led its partitions again,
and the median and 90th percentile of the per-second P99s between 5 s after unfencing and 5 s before it led again
(the stretch between the two transients).

Seconds are those of latency-seconds.csv (a send counted in the second it completed) on the clock of rounds.csv.

Usage: python3 docs/evidence/tools/transients.py docs/evidence/run18-fetch-sizes
"""
import csv
import statistics
import sys
from collections import defaultdict
from runfiles import rows


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(run):
    seconds = defaultdict(dict)
    for r in rows(run, 'latency-seconds.csv'):
        if r['view'] == 'all' and r['p99_ms']:
            seconds[(r['policy'], r['round'])][int(r['second'])] = float(r['p99_ms'])
    print('policy | round | worst seconds (P99 ms, s after unfencing, s to leading again) | between: median / p90 ms')
    for meta in sorted(rows(run, 'rounds.csv'), key=lambda m: (m['policy'], int(m['round']))):
        key = (meta['policy'], meta['round'])
        unfenced = float(meta['unfenced_at_s'])
        end = unfenced + float(meta['window_s'])
        led = unfenced + float(meta['recovery_s']) if meta['recovery_s'] else end
        window = {s: p for s, p in seconds[key].items() if unfenced <= s <= end}
        worst = sorted(window.items(), key=lambda sp: -sp[1])[:2]
        between = [p for s, p in window.items() if unfenced + 5 <= s <= led - 5]
        described = ', '.join('%.0f (%+.0f, %+.0f)' % (p, s - unfenced, s - led) for s, p in worst)
        spread = ('%.0f / %.0f' % (statistics.median(between), quantile(between, 0.9))) if between else '-'
        print('%s | %s | %s | %s' % (meta['policy'], meta['round'], described, spread))


if __name__ == '__main__':
    main(sys.argv[1])
