#!/usr/bin/env python3
"""The restarted broker's CPU and producers' P99 second by second around its unfencing: per round, for each second s
from 0 to 7 after unfencing, the broker's mean CPU (cores, cpu.csv) and the P99 of all sends completed in that second
(ms, latency-seconds.csv), printed as s:cores/p99.

Usage: python3 docs/evidence/tools/cpu-at-unfencing.py docs/evidence/run19-preferred-first
"""
import collections
import sys
from runfiles import rows


def main(run):
    cpu = collections.defaultdict(list)
    for r in rows(run, 'cpu.csv'):
        cpu[(r['policy'], r['round'])].append((float(r['at_s']), float(r['cores'])))
    p99 = collections.defaultdict(dict)
    for r in rows(run, 'latency-seconds.csv'):
        if r['view'] == 'all' and r['p99_ms']:
            p99[(r['policy'], r['round'])][int(r['second'])] = float(r['p99_ms'])
    for meta in sorted(rows(run, 'rounds.csv'), key=lambda m: (m['policy'], int(m['round']))):
        key = (meta['policy'], meta['round'])
        unfenced = float(meta['unfenced_at_s'])

        def mean(a, b):
            v = [c for t, c in cpu[key] if a <= t < b]
            return sum(v) / len(v) if v else float('nan')

        cells = ' '.join('%d:%.2f/%.0f' % (s, mean(unfenced + s, unfenced + s + 1), p99[key].get(int(unfenced) + s, 0))
                         for s in range(8))
        print('%s %s | %s' % (key[0], key[1], cells))


if __name__ == '__main__':
    main(sys.argv[1])
