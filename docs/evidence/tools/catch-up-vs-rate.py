#!/usr/bin/env python3
"""How fast a paced catch-up came down against the pacing rate in force, from a load test's `pacing.csv`.

Per round of each paced policy: the looks are cut into windows of at least 10 s (longer than Kafka's 11 one-second
samples would be too coarse for a catch-up of a minute); in each window, the fall of the restarted broker's bytes
behind per second over the mean of the rates the looks in it record. Windows with under 50 MB behind at their start
are left out (the tail, where the rate no longer binds). A ratio of 1 is a catch-up that fetched its rate.

Why the mean over every look, not a few: the adaptive rate moves at most looks (raised at a quiet canary, cut at a
loud one), and a reading of every fourth look takes a stretch of raises for a stretch at the min rate.

Usage: python3 docs/evidence/tools/catch-up-vs-rate.py RUN_DIR [POLICY ...]
  RUN_DIR holds pacing.csv (a `pacer loadtest --out DIR` run); without POLICY, every policy with a rate
"""
import csv
import statistics
import sys


def windows(rows, span_s=10.0, min_behind=5e7):
    out = []
    i = 0
    while i < len(rows) - 1:
        j = i
        while j < len(rows) - 1 and float(rows[j]['at_s']) - float(rows[i]['at_s']) < span_s:
            j += 1
        t0, t1 = float(rows[i]['at_s']), float(rows[j]['at_s'])
        b0, b1 = float(rows[i]['bytes_behind']), float(rows[j]['bytes_behind'])
        rate = statistics.mean(float(r['rate_bytes']) for r in rows[i:j])
        if t1 > t0 and b0 > min_behind and rate > 0:
            out.append(((b0 - b1) / (t1 - t0)) / rate)
        i = j
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1] + '/pacing.csv')))
    wanted = set(sys.argv[2:])
    paced = [r for r in rows if r['rate_bytes'] and r['bytes_behind'] and (not wanted or r['policy'] in wanted)]
    keys = sorted({(r['policy'], int(r['round'])) for r in paced})
    print('policy | round | windows | fetched / rate, median (p10-p90)')
    for policy, rnd in keys:
        w = sorted(windows([r for r in paced if r['policy'] == policy and int(r['round']) == rnd]))
        if w:
            n = len(w)
            print(f'{policy} | {rnd} | {n} | {w[n // 2]:.2f} ({w[n // 10]:.2f}-{w[9 * n // 10]:.2f})')


if __name__ == '__main__':
    main()
