#!/usr/bin/env python3
"""What the restarted broker's CPU went to in the first seconds after its unfencing, by thread group (threads.csv):
per round, over [unfencing, unfencing + N s) (N = 10 unless given), each group's share of the broker's CPU and its
mean in cores, the seconds in which the broker used at least 0.45 core in all, and the seconds in which its threads
other than the JIT compilers did (the work the cap holds when it spares the compiler). Then per policy, the median
compiler share with its range.

Usage: python3 docs/evidence/tools/threads-at-unfencing.py docs/evidence/run21-kip [SECONDS]
"""
import collections
import statistics
import sys
from runfiles import rows


def main(run, seconds):
    samples = collections.defaultdict(list)
    for r in rows(run, 'threads.csv'):
        samples[(r['policy'], r['round'])].append((float(r['at_s']), r['group'], float(r['cores'])))
    shares = collections.defaultdict(list)
    for meta in sorted(rows(run, 'rounds.csv'), key=lambda m: (m['policy'], int(m['round']))):
        key = (meta['policy'], meta['round'])
        unfenced = float(meta['unfenced_at_s'])
        # A sample at at_s covers the second before it.
        inside = [(t, g, c) for t, g, c in samples[key] if unfenced < t <= unfenced + seconds]
        if not inside:
            print('%s %s | no thread samples' % key)
            continue
        by_group = collections.defaultdict(float)
        by_second = collections.defaultdict(float)
        capped_by_second = collections.defaultdict(float)
        for t, g, c in inside:
            by_group[g] += c
            by_second[int(t)] += c
            if g != 'compiler':
                capped_by_second[int(t)] += c
        total = sum(by_group.values())
        n = len(by_second)
        cells = ' '.join('%s %.0f%% (%.2f)' % (g, 100 * v / total, v / n)
                         for g, v in sorted(by_group.items(), key=lambda x: -x[1]))
        busy = sum(1 for v in by_second.values() if v >= 0.45)
        busy_capped = sum(1 for v in capped_by_second.values() if v >= 0.45)
        print('%s %s | %d s, %.2f core | %s | >=0.45 core: %d s (all threads), %d s (all but the compiler)'
              % (key[0], key[1], n, total / n, cells, busy, busy_capped))
        shares[key[0]].append(100 * by_group.get('compiler', 0) / total)
    for policy, v in sorted(shares.items()):
        print('%s: compiler share median %.0f%% (%.0f-%.0f), %d rounds'
              % (policy, statistics.median(v), min(v), max(v), len(v)))


if __name__ == '__main__':
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 10.0)
