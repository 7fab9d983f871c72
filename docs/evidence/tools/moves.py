#!/usr/bin/env python3
"""For each round of a load-test run: when the partitions with producers first had a send while the restarted
broker led them, and the round's worst seconds for those sends (leader view of latency-seconds.csv).

Usage: python3 docs/evidence/tools/moves.py docs/evidence/run7-loaded-first
"""
import csv
import gzip
import sys


def opener(path):
    try:
        return gzip.open(path + '.gz', 'rt')
    except FileNotFoundError:
        return open(path)


def main(run):
    seconds = list(csv.DictReader(opener(run + '/latency-seconds.csv')))
    runs = list(csv.DictReader(open(run + '/agent-runs.csv')))
    for r in csv.DictReader(open(run + '/rounds.csv')):
        policy, rnd, unfenced = r['policy'], r['round'], float(r['unfenced_at_s'])
        batches = [a for a in runs if a['policy'] == policy and a['round'] == rnd and int(a['elected_to_broker']) > 0]
        led = [(int(s['second']) - unfenced, int(s['count']), float(s['p99_ms'])) for s in seconds
               if s['policy'] == policy and s['round'] == rnd and s['view'] == 'leader' and s['p99_ms']
               and int(s['second']) - unfenced > 0]
        first = '%.1f' % led[0][0] if led else '-'
        worst = ', '.join('%+.0f s: %d sends, P99 %.0f ms' % w for w in sorted(led, key=lambda x: -x[2])[:2])
        print('%s | round %s | release %s s | %d batches | loaded partitions led from %s s | worst: %s | window P99 %s ms'
              % (policy, rnd, r['gate_release_s'] or '-', len(batches), first, worst, r['window_p99_leader_ms']))


if __name__ == '__main__':
    main(sys.argv[1])
