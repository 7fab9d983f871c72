"""What every evidence tool reads: a run directory's CSV file, gzipped (as the docs keep the large ones) or not."""
import csv
import gzip


def rows(run, name):
    """The rows of run/name, from run/name.gz where that exists."""
    try:
        return list(csv.DictReader(gzip.open(run + '/' + name + '.gz', 'rt')))
    except FileNotFoundError:
        return list(csv.DictReader(open(run + '/' + name)))
