#!/usr/bin/env python3
"""What the restarted broker did during the adaptive paced catch-up, quota by quota, beside the canary's reading:
why the canary crosses its 1.5x target between half a core and three quarters.

Reads, from each run directory given: rounds.csv (unfencing, last ISR re-entry, quota), pacing.csv (the agent's
looks: rate, reason with the canary's ratio), cpu.csv(.gz) (the restarted broker's cores, a sample every 0.25 s),
threads.csv(.gz) (its cores by thread group each second, kept to a minute after unfencing),
partitions.csv(.gz) (its bytes behind, about every 0.5 s) and latency-seconds.csv(.gz) (per-second P99 by view).

The catch-up is a round's unfencing to its last ISR re-entry (as `catch_up_busy_cores` in rounds.csv). A round counts
when some look in its catch-up read the canary ("canary P99 Nx steady"); the looks that acted on it are those that
cut or held at a loud canary ("over 1.5x") or raised at a quiet one ("within 1.5x"); the looks that only hold while
a change shows ("holding") read the canary too and are counted apart. "At the quota": a 0.25-s CPU sample at 90 % of
the quota or more (the samples move in steps of 0.04 core, one 10-ms tick; a single sample can read above the quota).

"Fetched" is the fall of its bytes behind (partitions.csv) over the time: the records written meanwhile to partitions
it already follows in sync (at most the load's 0.1 MiB/s) are not in it.

Prints, as markdown tables:
 1. per round: the canary at its acting looks, the rate in force, MiB/s fetched, the broker's CPU over the catch-up
    (mean, p50/p90/p99 of samples, share at the quota), its CPU per MiB fetched, and the per-second P99 of the
    producers' sends to partitions where it was an in-sync follower (`in_sync_follower` view, the load's analogue of
    the canary) over the round's steady P99;
 2. per round: the 5 s before each acting look (the canary's own window), over-target looks against within-target
    ones: the broker's mean CPU, its samples at the quota, the in-sync-follower P99 as in 1;
 3. per quota and policy: the acting looks by time since unfencing (0-15 s, 15-60 s, after);
 4. per quota and policy: the acting looks by whether a CPU sample of the 5 s before them was at the quota;
 5. per round: CPU by thread group over the catch-up's first minute (threads.csv stops there), split at 15 s, with
    the replica fetchers' CPU per MiB fetched;
 6. per quota: the broker's CPU against the rate it fetched in 10-s windows of the catch-up from 15 s on (least
    squares), and the fetch rate at which that line would reach 90 % of the quota (an extrapolation wherever it lies
    past the rates measured; none where the line does not rise);
 7. per quota and policy: medians over the rounds with their range;
 8. per quota: the same runs' `immediate` rounds (unpaced, whatever --policy says): what the quota allows;
 9. per round, for runs whose cpu.csv has the cgroup quota's counters (periods, throttled_periods, throttled_ms: from
    run 38 on): the share of the catch-up's 100-ms periods in which the kernel stopped the broker at its quota, its
    threads' stopped time per second, the share throttled in the 5 s before each acting look (over-target against
    within-target looks), and the canary at looks after more throttling than the round's share against the others.

Usage: python3 docs/evidence/tools/canary-threshold.py RUN_DIR [RUN_DIR ...] [--policy POLICY ...]
  e.g. docs/evidence/run21-kip docs/evidence/run36-three-quarter-core docs/evidence/run37-three-quarter-core-paced
  docs/evidence/run30-one-core docs/evidence/run33-uncapped docs/evidence/run34-uncapped-second
  without --policy, every policy whose looks read the canary during a catch-up
"""
import collections
import re
import statistics
import sys
from runfiles import rows

MIB = 1048576.0
CANARY = re.compile(r'canary P99 ([\d.]+)x steady')
WINDOW_S = 10.0      # table 4's windows
MIN_BEHIND = 5e7     # table 4 leaves out windows starting under 50 MB behind (the tail, where the rate no longer binds)
THREAD_SPLIT_S = 15.0
SPANS = (('0-15 s', 0.0, 15.0), ('15-60 s', 15.0, 60.0), ('60 s to the end', 60.0, 1e9))
GROUPS = ['compiler', 'gc', 'replica_fetcher', 'request_handler', 'network', 'metadata', 'other']


def med(v, fmt='%.2f'):
    return fmt % statistics.median(v) if v else '-'


def spread(v, fmt='%.2f'):
    if not v:
        return '-'
    if len(v) == 1:
        return fmt % v[0]
    return (fmt + ' (' + fmt + '-' + fmt + ')') % (statistics.median(v), min(v), max(v))


def mean(v, fmt='%.3f'):
    return fmt % statistics.mean(v) if v else '-'


def pct(v, q):
    s = sorted(v)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float('nan')


def quota_label(meta):
    if not meta['cap_cores']:
        return 'uncapped'
    label = '%g core' % float(meta['cap_cores'])
    if 'compiler threads spared' in meta['saturation']:
        label += ', compiler spared'
    return label


def load(run, wanted):
    """Per round of the run with canary looks in its catch-up, a dict of what the tables need."""
    by_round = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows(run, 'cpu.csv'):
        by_round[(r['policy'], r['round'])]['cpu'].append((float(r['at_s']), float(r['cores'])))
        if r.get('throttled_periods'):
            by_round[(r['policy'], r['round'])]['throttled'].append(
                (float(r['at_s']), int(r['periods']), int(r['throttled_periods']), float(r['throttled_ms'])))
    for r in rows(run, 'threads.csv'):
        by_round[(r['policy'], r['round'])]['threads'].append((float(r['at_s']), r['group'], float(r['cores'])))
    for r in rows(run, 'partitions.csv'):
        if r['bytes_behind']:
            by_round[(r['policy'], r['round'])]['behind'].append((float(r['at_s']), float(r['bytes_behind'])))
    for r in rows(run, 'latency-seconds.csv'):
        if r['p99_ms'] and r['view'] in ('all', 'in_sync_follower'):
            by_round[(r['policy'], r['round'])][r['view']].append((int(r['second']), float(r['p99_ms'])))
    for r in rows(run, 'pacing.csv'):
        by_round[(r['policy'], r['round'])]['looks'].append(r)
    out = []
    for meta in sorted(rows(run, 'rounds.csv'), key=lambda m: (m['policy'], int(m['round']))):
        key = (meta['policy'], meta['round'])
        if wanted and meta['policy'] not in wanted or not meta['reentry_last_s']:
            continue
        d = by_round[key]
        start = float(meta['unfenced_at_s'])
        end = start + float(meta['reentry_last_s'])
        looks = [r for r in d['looks'] if start <= float(r['at_s']) <= end]
        if not any(CANARY.match(r['reason']) for r in looks):
            continue
        cap = float(meta['cap_cores']) if meta['cap_cores'] else None
        out.append(dict(run=run_label(run), policy=meta['policy'], round=meta['round'],
                        quota=quota_label(meta), cap=cap, start=start, end=end,
                        steady=float(meta['steady_p99_ms']), looks=looks,
                        cpu=[(t, c) for t, c in d['cpu'] if start < t <= end],
                        throttled=[x for x in d['throttled'] if start < x[0] <= end],
                        threads=d['threads'], behind=sorted(d['behind']),
                        isf=dict(d['in_sync_follower'])))
    return out


def run_label(run):
    """The run's folder name; with its parent's when it is one of a run's parts (run 38's half/, three-quarter/)."""
    parts = run.rstrip('/').split('/')
    return parts[-1] if parts[-1].startswith('run') or len(parts) < 2 else '/'.join(parts[-2:])


def canary_looks(rnd):
    """(at_s, ratio, kind, rate in force before the look, bytes/s) for every look that read the canary."""
    out = []
    before = None
    for r in rnd['looks']:
        m = CANARY.match(r['reason'])
        if m:
            kind = 'over' if 'over 1.5x' in r['reason'] else 'within' if 'within 1.5x' in r['reason'] else 'holding'
            out.append((float(r['at_s']), float(m.group(1)), kind, before))
        if r['rate_bytes']:
            before = float(r['rate_bytes'])
    return out


def fetched(rnd, a, b):
    """Bytes the broker's bytes behind fell by from a to b (the first and last samples inside), and the seconds."""
    inside = [(t, v) for t, v in rnd['behind'] if a <= t <= b]
    if len(inside) < 2:
        return None, None
    return inside[0][1] - inside[-1][1], inside[-1][0] - inside[0][0]


def cpu_between(rnd, a, b):
    return [c for t, c in rnd['cpu'] if a < t <= b]


def at_quota(samples, cap):
    if cap is None or not samples:
        return None
    return sum(c >= 0.9 * cap for c in samples) / len(samples)


def fmt_share(x):
    return '-' if x is None else '%.0f%%' % (100 * x)


def table1(rounds):
    print('### 1. Per round: the canary, the rate, the broker\'s CPU over the catch-up\n')
    print('| run | policy | round | quota | catch-up s | acting looks: over / within | canary × at acting looks, '
          'median (min-max) | canary × at all looks, median | rate in force MiB/s, median | fetched MiB/s | '
          'CPU cores mean | CPU p50 / p90 / p99 | samples at the quota | CPU ms per MiB fetched | '
          'in-sync-follower P99 per second × steady, median | its seconds over 1.5× |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    for r in rounds:
        looks = canary_looks(r)
        acting = [x[1] for x in looks if x[2] != 'holding']
        over = sum(x[2] == 'over' for x in looks)
        within = sum(x[2] == 'within' for x in looks)
        rates = [float(x['rate_bytes']) / MIB for x in r['looks'] if x['rate_bytes']]
        got, secs = fetched(r, r['start'], r['end'])
        mibs = got / MIB / secs if got else float('nan')
        cores = [c for _, c in r['cpu']]
        avg = statistics.mean(cores)
        isf = [v / r['steady'] for s, v in r['isf'].items() if r['start'] <= s < r['end']]
        r.update(acting=acting, over=over, within=within, rate=statistics.median(rates) if rates else None,
                 mibs=mibs, mean=avg, share=at_quota(cores, r['cap']), ms_per_mib=1000 * avg / mibs,
                 isf_med=statistics.median(isf) if isf else None,
                 isf_over=sum(v > 1.5 for v in isf) / len(isf) if isf else None)
        print('| %s | %s | %s | %s | %.1f | %d / %d | %s | %s | %s | %.1f | %.3f | %.2f / %.2f / %.2f | %s | %.1f '
              '| %s | %s |' % (
            r['run'], r['policy'], r['round'], r['quota'], r['end'] - r['start'], over, within,
            '%s (%.1f-%.1f)' % (med(acting, '%.1f'), min(acting), max(acting)) if acting else '-',
            med([x[1] for x in looks], '%.1f'), med(rates, '%.1f'), mibs, avg,
            pct(cores, .5), pct(cores, .9), pct(cores, .99), fmt_share(r['share']), r['ms_per_mib'],
            '-' if r['isf_med'] is None else '%.2f' % r['isf_med'], fmt_share(r['isf_over'])))
    print()


def table2(rounds):
    print('### 2. Per round: the 5 s before each acting look, over-target looks against within-target ones\n')
    print('| run | policy | round | quota | looks over / within | CPU cores mean: over / within | '
          'samples at the quota: over / within | in-sync-follower P99 × steady, median: over / within |')
    print('|---|---|---|---|---|---|---|---|')
    for r in rounds:
        cells = {}
        for kind in ('over', 'within'):
            cpu, isf = [], []
            for t, _, k, _ in canary_looks(r):
                if k != kind:
                    continue
                cpu += cpu_between(r, t - 5, t)
                isf += [r['isf'][s] / r['steady'] for s in range(int(t) - 5, int(t)) if s in r['isf']]
            cells[kind] = (cpu, isf)
        r['before'] = cells
        print('| %s | %s | %s | %s | %d / %d | %s / %s | %s / %s | %s / %s |' % (
            r['run'], r['policy'], r['round'], r['quota'], r['over'], r['within'],
            mean(cells['over'][0]), mean(cells['within'][0]),
            fmt_share(at_quota(cells['over'][0], r['cap'])), fmt_share(at_quota(cells['within'][0], r['cap'])),
            med(cells['over'][1], '%.1f'), med(cells['within'][1], '%.1f')))
    print()


def acting_looks(rounds):
    """(round, at_s, ratio, kind, CPU samples of the 5 s before) for every acting look of these rounds."""
    return [(r, t, ratio, kind, cpu_between(r, t - 5, t))
            for r in rounds for t, ratio, kind, _ in canary_looks(r) if kind != 'holding']


def table3(rounds):
    print('### 3. Per quota and policy: the acting looks by time since unfencing\n')
    print('| quota | policy | since unfencing | looks | over 1.5× | canary ×, median | CPU cores in the 5 s before, mean | '
          'its samples at the quota |')
    print('|---|---|---|---|---|---|---|---|')
    for quota, group in by_quota(rounds):
        for policy in sorted({r['policy'] for r in group}):
            looks = acting_looks([r for r in group if r['policy'] == policy])
            for name, a, b in SPANS:
                inside = [x for x in looks if a <= x[1] - x[0]['start'] < b]
                if not inside:
                    continue
                cpu = [c for x in inside for c in x[4]]
                print('| %s | %s | %s | %d | %.0f%% | %s | %s | %s |' % (
                    quota, policy, name, len(inside), 100 * sum(x[3] == 'over' for x in inside) / len(inside),
                    med([x[2] for x in inside], '%.2f'), mean(cpu), fmt_share(at_quota(cpu, group[0]['cap']))))
    print()


def table4(rounds):
    print('### 4. Per quota and policy: the acting looks by whether a CPU sample of the 5 s before was at the quota\n')
    print('| quota | policy | a sample at the quota in the 5 s before | looks | over 1.5× | canary ×, median |')
    print('|---|---|---|---|---|---|')
    for quota, group in by_quota(rounds):
        cap = group[0]['cap']
        if cap is None:
            continue
        for policy in sorted({r['policy'] for r in group}):
            looks = acting_looks([r for r in group if r['policy'] == policy])
            for name, test in (('yes', lambda v: any(c >= 0.9 * cap for c in v)),
                               ('no', lambda v: v and not any(c >= 0.9 * cap for c in v))):
                inside = [x for x in looks if test(x[4])]
                if inside:
                    print('| %s | %s | %s | %d | %.0f%% | %s |' % (
                        quota, policy, name, len(inside), 100 * sum(x[3] == 'over' for x in inside) / len(inside),
                        med([x[2] for x in inside], '%.2f')))
    print()


def table5(rounds):
    print('### 5. Per round: CPU by thread group over the catch-up\'s first minute (mean cores; share of the broker\'s)'
          '\n')
    print('| run | policy | round | quota | span | s | all | ' + ' | '.join(GROUPS) +
          ' | seconds at the quota | fetched MiB/s | replica_fetcher ms per MiB |')
    print('|---|---|---|---|---|---|---|' + '---|' * len(GROUPS) + '---|---|---|')
    for r in rounds:
        for name, a, b in (('0-15 s', 0.0, THREAD_SPLIT_S), ('15-60 s', THREAD_SPLIT_S, 60.0)):
            lo, hi = r['start'] + a, min(r['start'] + b, r['end'])
            inside = [(t, g, c) for t, g, c in r['threads'] if lo < t <= hi]
            secs = sorted({t for t, _, _ in inside})
            if not secs:
                continue
            by_group = collections.defaultdict(float)
            by_second = collections.defaultdict(float)
            for t, g, c in inside:
                by_group[g] += c
                by_second[t] += c
            total = sum(by_group.values())
            n = len(secs)
            busy = '-' if r['cap'] is None else '%d' % sum(v >= 0.9 * r['cap'] for v in by_second.values())
            r.setdefault('groups', {})[name] = {g: by_group[g] / n for g in GROUPS}
            r['groups'][name]['all'] = total / n
            got, span = fetched(r, lo, hi)
            mibs = got / MIB / span if got and span > 0 else None
            per_mib = 1000 * by_group['replica_fetcher'] / n / mibs if mibs and mibs > 0.5 else None
            r['groups'][name]['fetcher_ms_per_mib'] = per_mib
            print('| %s | %s | %s | %s | %s | %d | %.3f | %s | %s | %s | %s |' % (
                r['run'], r['policy'], r['round'], r['quota'], name, n, total / n,
                ' | '.join('%.3f (%.0f%%)' % (by_group[g] / n, 100 * by_group[g] / total if total else 0)
                           for g in GROUPS), busy, '-' if mibs is None else '%.1f' % mibs,
                '-' if per_mib is None else '%.1f' % per_mib))
    print()


def table6(rounds):
    print('### 6. Per quota: the broker\'s CPU against the rate it fetched, 10-s windows from 15 s on\n')
    print('| quota | rounds | windows | fetched MiB/s: min / median / max | CPU = a + b × MiB/s: a cores | '
          'b ms per MiB | r² | MiB/s at which the line reaches 90 % of the quota |')
    print('|---|---|---|---|---|---|---|---|')
    for quota, group in by_quota(rounds):
        points = []
        for r in group:
            t = r['start'] + THREAD_SPLIT_S
            while t + WINDOW_S <= r['end']:
                got, secs = fetched(r, t, t + WINDOW_S)
                behind = [v for u, v in r['behind'] if u >= t]
                cpu = cpu_between(r, t, t + WINDOW_S)
                if got is not None and secs > 0.5 * WINDOW_S and behind and behind[0] > MIN_BEHIND and cpu:
                    points.append((got / MIB / secs, statistics.mean(cpu)))
                t += WINDOW_S
        if len(points) < 3:
            continue
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        b, a = statistics.linear_regression(xs, ys)
        r2 = statistics.correlation(xs, ys) ** 2
        cap = group[0]['cap']
        reach = '-' if cap is None or b <= 0 else '%.0f%s' % ((0.9 * cap - a) / b,
                                                             ' (past the rates measured)'
                                                             if (0.9 * cap - a) / b > max(xs) else '')
        print('| %s | %d | %d | %.1f / %.1f / %.1f | %.3f | %.1f | %.2f | %s |' % (
            quota, len(group), len(points), min(xs), statistics.median(xs), max(xs), a, 1000 * b, r2, reach))
    print()


def by_quota(rounds):
    order = collections.OrderedDict()
    for r in sorted(rounds, key=lambda r: (r['cap'] is None, r['cap'] or 0, r['quota'])):
        order.setdefault(r['quota'], []).append(r)
    return list(order.items())


def table7(rounds):
    print('### 7. Per quota: medians over the rounds (range)\n')
    print('| quota | policy | rounds | canary × at acting looks (pooled looks) | over / within | rate in force MiB/s | '
          'fetched MiB/s | CPU cores mean | samples at the quota | CPU ms per MiB | compiler cores, 0-15 s / 15-60 s | '
          'CPU 5 s before over-target looks / within-target |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|')
    for quota, group in by_quota(rounds):
        for policy in sorted({r['policy'] for r in group}):
            g = [r for r in group if r['policy'] == policy]
            pooled = [x for r in g for x in r['acting']]
            shares = [r['share'] for r in g if r['share'] is not None]
            c0 = [r['groups']['0-15 s']['compiler'] for r in g if '0-15 s' in r.get('groups', {})]
            c1 = [r['groups']['15-60 s']['compiler'] for r in g if '15-60 s' in r.get('groups', {})]
            over_cpu = [x for r in g for x in r['before']['over'][0]]
            within_cpu = [x for r in g for x in r['before']['within'][0]]
            print('| %s | %s | %d | %s (%d) | %d / %d | %s | %s | %s | %s | %s | %s / %s | %s / %s |' % (
                quota, policy, len(g), med(pooled, '%.2f'), len(pooled), sum(r['over'] for r in g),
                sum(r['within'] for r in g), spread([r['rate'] for r in g if r['rate']], '%.1f'),
                spread([r['mibs'] for r in g], '%.1f'), spread([r['mean'] for r in g], '%.3f'),
                spread([100 * s for s in shares], '%.0f%%') if shares else '-',
                spread([r['ms_per_mib'] for r in g], '%.1f'), spread(c0, '%.3f'), spread(c1, '%.3f'),
                '%.3f' % statistics.mean(over_cpu) if over_cpu else '-',
                '%.3f' % statistics.mean(within_cpu) if within_cpu else '-'))
    print()


def table8(runs):
    print('### 8. Per quota: the unpaced `immediate` rounds of the same runs (what the quota allows when nothing paces)\n')
    print('| quota | rounds | catch-up s | fetched MiB/s | CPU cores mean | samples at the quota |')
    print('|---|---|---|---|---|---|')
    cells = collections.OrderedDict()
    for run in runs:
        cpu = collections.defaultdict(list)
        behind = collections.defaultdict(list)
        for r in rows(run, 'cpu.csv'):
            if r['policy'] == 'immediate':
                cpu[r['round']].append((float(r['at_s']), float(r['cores'])))
        for r in rows(run, 'partitions.csv'):
            if r['policy'] == 'immediate' and r['bytes_behind']:
                behind[r['round']].append((float(r['at_s']), float(r['bytes_behind'])))
        for meta in rows(run, 'rounds.csv'):
            if meta['policy'] != 'immediate' or not meta['reentry_last_s']:
                continue
            start = float(meta['unfenced_at_s'])
            end = start + float(meta['reentry_last_s'])
            rnd = dict(behind=sorted(behind[meta['round']]))
            got, secs = fetched(rnd, start, end)
            cores = [c for t, c in cpu[meta['round']] if start < t <= end]
            cap = float(meta['cap_cores']) if meta['cap_cores'] else None
            if got and cores:
                cells.setdefault((cap is None, cap or 0, quota_label(meta)), []).append(
                    (end - start, got / MIB / secs, statistics.mean(cores), at_quota(cores, cap)))
    for (_, _, quota), v in sorted(cells.items()):
        shares = [x[3] for x in v if x[3] is not None]
        print('| %s | %d | %s | %s | %s | %s |' % (
            quota, len(v), spread([x[0] for x in v], '%.1f'), spread([x[1] for x in v], '%.1f'),
            spread([x[2] for x in v], '%.3f'), spread([100 * x for x in shares], '%.0f%%') if shares else '-'))
    print()


def throttled_between(rnd, a, b):
    """(periods, throttled periods, throttled ms) summed over the samples in (a, b]."""
    inside = [x for x in rnd['throttled'] if a < x[0] <= b]
    return sum(x[1] for x in inside), sum(x[2] for x in inside), sum(x[3] for x in inside)


def table9(rounds):
    rounds = [r for r in rounds if r['throttled']]
    if not rounds:
        return
    print('### 9. Per round: the periods the kernel stopped the broker at its quota (cgroup counters)\n')
    print('| run | policy | round | quota | catch-up periods | throttled | throttled ms per s | acting looks: over '
          '/ within | throttled share of the 5 s before, over-target looks: median (range) | within-target looks | '
          'canary × at looks after a throttled share above the round\'s, median | at or below it |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|')
    for r in rounds:
        periods, throttled, ms = throttled_between(r, r['start'], r['end'])
        share = throttled / periods if periods else 0

        def before(t):
            p, th, _ = throttled_between(r, t - 5, t)
            return th / p if p else 0

        looks = [(t, ratio, kind, before(t)) for t, ratio, kind, _ in canary_looks(r) if kind != 'holding']
        over = [x[3] for x in looks if x[2] == 'over']
        within = [x[3] for x in looks if x[2] == 'within']
        print('| %s | %s | %s | %s | %d | %s | %.0f | %d / %d | %s | %s | %s | %s |' % (
            r['run'], r['policy'], r['round'], r['quota'], periods, fmt_share(share if periods else None),
            ms / (r['end'] - r['start']), len(over), len(within),
            shares(over), shares(within),
            med([x[1] for x in looks if x[3] > share]), med([x[1] for x in looks if x[3] <= share])))
    print()


def shares(v):
    if not v:
        return '-'
    return '%.0f%% (%.0f-%.0f%%)' % (100 * statistics.median(v), 100 * min(v), 100 * max(v))


def main(argv):
    runs, wanted = [], set()
    i = 0
    while i < len(argv):
        if argv[i] == '--policy':
            wanted.add(argv[i + 1])
            i += 2
        else:
            runs.append(argv[i])
            i += 1
    if not runs:
        sys.exit(__doc__)
    rounds = [r for run in runs for r in load(run.rstrip('/'), wanted)]
    for table in (table1, table2, table3, table4, table5, table6, table7):
        table(rounds)
    table8(runs)
    table9(rounds)


if __name__ == '__main__':
    main(sys.argv[1:])
