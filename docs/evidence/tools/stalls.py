#!/usr/bin/env python3
"""The stalls of a load-test run: every second of a round in which a send of the protected or the other partitions
completed after more than THRESHOLD ms (default 2000), with when that send was made (the second it completed, less
its latency) against broker 1's kill and unfencing, and the roles whose sends completed in that second.

Seconds are those of latency-seconds.csv (a send's latency is counted in the second it completed) on the round's own
clock, the clock of rounds.csv.

Usage: python3 docs/evidence/tools/stalls.py docs/evidence/run13-trade-off [THRESHOLD_MS]
"""
import csv
import sys
from collections import defaultdict
from runfiles import rows

ROLES = ('leader', 'in_sync_follower', 'not_in_isr')


def main(run, threshold):
    rounds = {(r['policy'], r['round']): r for r in rows(run, 'rounds.csv')}
    by_second = defaultdict(dict)
    for r in rows(run, 'latency-seconds.csv'):
        if r['max_ms']:
            by_second[(r['policy'], r['round'], int(r['second']))][r['view']] = r
    print('policy round second class sends max_ms made_at_s kill_s unfenced_s made-unfenced_s roles(count/max_ms)')
    for (policy, rnd, second), views in sorted(by_second.items(), key=lambda k: (k[0][0], k[0][1], k[0][2])):
        meta = rounds.get((policy, rnd))
        if meta is None:
            continue
        for cls in ('protected', 'other'):
            v = views.get(cls)
            if v is None or float(v['max_ms']) <= threshold:
                continue
            made = second - float(v['max_ms']) / 1000
            unfenced = float(meta['unfenced_at_s'])
            roles = ' '.join('%s %s/%.0f' % (role, views[role]['count'], float(views[role]['max_ms']))
                             for role in ROLES if role in views)
            print('%s %s %d %s %s %.0f %.1f %s %.1f %+.1f %s' % (policy, rnd, second, cls, v['count'],
                                                                float(v['max_ms']), made, meta['stopped_at_s'],
                                                                unfenced, made - unfenced, roles))


if __name__ == '__main__':
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 2000.0)
