#!/usr/bin/env python3
"""The first seconds after unfencing, second by second, per round: what the catch-up fetched against the rate pacing had
in force, and what the writes paid. Per second from 2 s before unfencing to 12 s after it: sends completed / P99 ms of
all sends and of the writes to partitions the restarted broker was not in the ISR of (`latency-seconds.csv`); the
broker's capped CPU without its compiler threads (`threads.csv`); MB fetched since the previous second (the fall of
bytes behind, `partitions.csv`, whose samples are about a second apart: a delta over a longer gap is spread evenly);
and the follower rate in force (`pacing.csv`, the last rate written before that second; `-` for none).

Kafka's replication quota is a rate over `replication.quota.window.num` one-second samples (11 by default), and a
sensor younger than the window counts as if it were the window's full length (`Rate.windowSize`): a quota new at the
broker's start lets the window's worth of bytes through at once, and a rate raised lets the difference over the window
through at once. This tool shows whether that happened at unfencing.

Usage: python3 docs/evidence/tools/first-seconds.py docs/evidence/run29-quick-restart-deadline-all
"""
import sys
from collections import defaultdict
from runfiles import rows

BEFORE_S = 2
AFTER_S = 12


def by_second(run):
    latency = defaultdict(dict)
    for r in rows(run, 'latency-seconds.csv'):
        if r['p99_ms']:
            latency[(r['policy'], r['round'], int(r['second']))][r['view']] = (int(r['count']), float(r['p99_ms']))
    work = defaultdict(float)
    for r in rows(run, 'threads.csv'):
        if r['group'] != 'compiler':
            work[(r['policy'], r['round'], int(float(r['at_s'])))] += float(r['cores'])
    return latency, work


def fetched_per_second(run, key, start, end):
    samples = [(float(r['at_s']), float(r['bytes_behind'] or 0)) for r in rows(run, 'partitions.csv')
               if (r['policy'], r['round']) == key]
    fetched = defaultdict(float)
    for (t0, b0), (t1, b1) in zip(samples, samples[1:]):
        if t1 < start or t0 > end or t1 <= t0 or b1 > b0:
            continue
        per_s = (b0 - b1) / (t1 - t0)
        s = int(t0)
        while s < t1:
            overlap = min(s + 1, t1) - max(s, t0)
            fetched[s] += per_s * max(overlap, 0)
            s += 1
    return fetched


def rate_in_force(run, key):
    writes = sorted((float(r['at_s']), r['rate_bytes']) for r in rows(run, 'pacing.csv')
                    if (r['policy'], r['round']) == key)
    return lambda t: next((rate for at, rate in reversed(writes) if at <= t), '')


def main(run):
    latency, work = by_second(run)
    for meta in sorted(rows(run, 'rounds.csv'), key=lambda m: (m['policy'], int(m['round']))):
        key = (meta['policy'], meta['round'])
        unfenced = float(meta['unfenced_at_s'])
        first, last = int(unfenced) - BEFORE_S, int(unfenced) + AFTER_S
        fetched = fetched_per_second(run, key, first, last + 1)
        rate = rate_in_force(run, key)
        print('%s round %s (KIP-window P99 %s ms)' % (meta['policy'][:60], meta['round'], meta['window_p99_ms']))
        print('  s after unfencing | all: sends / P99 ms | not in ISR: sends / P99 ms | cores without compiler'
              ' | MB fetched | rate in force MiB/s')
        for s in range(first, last + 1):
            views = latency.get(key + (s,), {})

            def cell(view):
                return '%d / %.0f' % views[view] if view in views else '-'
            r = rate(s + 1)
            print('  %+3d | %s | %s | %.2f | %.0f | %s' % (
                s - int(unfenced), cell('all'), cell('not_in_isr'), work.get(key + (s,), 0.0),
                fetched.get(s, 0.0) / 1e6, '%.1f' % (int(r) / 1048576) if r else '-'))


if __name__ == '__main__':
    main(sys.argv[1])
