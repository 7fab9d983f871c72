#!/usr/bin/env python3
"""The highest CPU use of the restarted broker averaged over any window of WINDOW seconds (default 2), from a
load-test run's cpu.csv: each look covers about 0.5 s and can read above the quota on its own.

Usage: python3 docs/evidence/tools/cpu-window.py docs/evidence/run5-recovery-mechanisms [WINDOW]
"""
import csv
import gzip
import sys
from collections import defaultdict


def main(run, window):
    try:
        rows = list(csv.DictReader(gzip.open(run + '/cpu.csv.gz', 'rt')))
    except FileNotFoundError:
        rows = list(csv.DictReader(open(run + '/cpu.csv')))
    looks = [float(r['cores']) for r in rows]
    print('single looks: max %.3f core, %d of %d above 0.55' % (max(looks), sum(v > 0.55 for v in looks), len(looks)))
    by_round = defaultdict(list)
    for r in rows:
        by_round[(r['policy'], r['round'])].append((float(r['at_s']), float(r['cores'])))
    best, where = 0.0, None
    for key, v in by_round.items():
        for i in range(len(v)):
            num = den = 0.0
            j = i + 1
            while j < len(v) and v[j][0] - v[i][0] <= window:
                dt = v[j][0] - v[j - 1][0]
                num += v[j][1] * dt
                den += dt
                j += 1
            if den > 0.75 * window and num / den > best:
                best, where = num / den, (key, v[i][0])
    print('over any %.0f s: at most %.3f core (%s round %s at %.1f s)' % (window, best, where[0][0], where[0][1], where[1]))


if __name__ == '__main__':
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 2.0)
