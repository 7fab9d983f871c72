#!/usr/bin/env python3
"""Evidence run 8 against the predictions written before it (docs/evidence/run8-catch-up-pacing/PREDICTION.md): per policy, the
measured median (and range) of the window P99, the catch-up (last preferred ISR re-entry after unfencing) and
the recovery, beside the modelled figure and the difference.

The predictions are P99 ratios over the model's steady P99 (69.2 ms); the run has its own pooled steady
reference (the median of every round's 5 s steady-window P99s, as the load test computes it). Both
comparisons are printed: ratio against ratio, and the absolute P99 against the modelled ratio times the
model's steady P99.

Usage: python3 docs/evidence/tools/against-prediction.py docs/evidence/run8-catch-up-pacing
"""
import statistics
import sys
from runfiles import rows

MODEL_STEADY_MS = 69.2
# policy: (ratio all, ratio protected, recovery s or None for "never", catch-up s), as predicted (medians)
PREDICTED = {
    'immediate': (115.1, 56.4, 33.9, 33.2),
    'recommended': (57.9, 58.1, 78.9, 20.4),
    'paced-10m': (2.68, 2.74, 233.2, 195.1),
    'paced-25m': (2.78, 2.83, 133.9, 82.2),
    'paced-50m': (2.78, 2.83, 98.9, 41.9),
    'paced-adaptive': (2.58, 2.64, None, 332.1),
}


def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return None, '-'
    m = statistics.median(values)
    return m, ('%.4g (%.4g-%.4g)' % (m, min(values), max(values)) if len(values) > 1 else '%.4g' % m)


def diff(measured, predicted):
    if measured is None or predicted is None:
        return '-'
    return '%+.0f %%' % (100.0 * (measured - predicted) / predicted)


def number(text):
    return float(text) if text not in ('', None) else None


def main(run):
    windows = rows(run, 'steady-windows.csv')
    steady = {view: statistics.median(float(w['p99_ms']) for w in windows if w['view'] == view)
              for view in ('all', 'protected')}
    print('steady reference (pooled): all %.1f ms, protected %.1f ms; the model\'s steady %.1f ms'
          % (steady['all'], steady['protected'], MODEL_STEADY_MS))
    print()
    print('| policy | quantity | measured | predicted | measured vs predicted |')
    print('|---|---|---:|---:|---:|')
    rounds = rows(run, 'rounds.csv')
    for policy, (ratio_all, ratio_prot, recovery, catch_up) in PREDICTED.items():
        mine = [r for r in rounds if r['policy'] == policy]
        if not mine:
            continue
        for view, column, predicted_ratio in (('all', 'window_p99_ms', ratio_all),
                                              ('protected', 'window_p99_protected_ms', ratio_prot)):
            ms, ms_text = spread([number(r[column]) for r in mine])
            ratio, ratio_text = spread([number(r[column]) / steady[view] for r in mine])
            print('| %s | window P99 %s / steady | %sx | %.3gx | %s |' % (policy, view, ratio_text, predicted_ratio,
                                                                      diff(ratio, predicted_ratio)))
            print('| %s | window P99 %s | %s ms | %.0f ms | %s |' % (policy, view, ms_text,
                                                                    predicted_ratio * MODEL_STEADY_MS,
                                                                    diff(ms, predicted_ratio * MODEL_STEADY_MS)))
        c, c_text = spread([number(r['reentry_last_s']) for r in mine])
        print('| %s | catch-up | %s s | %.1f s | %s |' % (policy, c_text, catch_up, diff(c, catch_up)))
        recovered = [number(r['recovery_s']) for r in mine]
        never = sum(v is None for v in recovered)
        v, v_text = spread(recovered)
        if never:
            v_text += ' (%d of %d rounds never)' % (never, len(mine))
        print('| %s | recovery | %s s | %s | %s |' % (policy, v_text,
                                                      'never (over 6 min)' if recovery is None else '%.1f s' % recovery,
                                                      diff(v, recovery)))


if __name__ == '__main__':
    main(sys.argv[1])
