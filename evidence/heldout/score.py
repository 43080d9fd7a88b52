#!/usr/bin/env python3
"""Scores the analyzer's reports (out/DIR.report.json) against truth.json; writes SCORE.md and score.json.

A planted episode is matched to the found episode (same directory) that overlaps its span the most, the span being
[mechanism start - 2 s, mechanism end + 4 s] (requests are cut by their end, so a stall shows after it began).
Found episodes that overlap no planted span are "unplanted".
"""
import datetime as dt
import json
import os
import sys

HERE = os.environ.get('HELDOUT_DIR') or os.path.join(os.path.dirname(os.path.abspath(__file__)), 'out')


def epoch(iso):
    return dt.datetime.fromisoformat(iso.replace('Z', '+00:00')).timestamp()


def right(true_cause, found):
    if found is None:
        return False
    if true_cause == 'vacuum_storm':
        return found == 'vacuum_storm'
    if true_cause == 'wal_pool':
        return 'wal' in found and 'vacuum' not in found
    if true_cause == 'storage':
        return found.startswith('storage')
    if true_cause == 'lock_contention':
        return 'lock' in found
    if true_cause == 'generator':
        return found == 'generator'
    return False


def main(argv):
    truths = json.load(open(os.path.join(HERE, 'truth.json')))
    only = set(argv[1:])
    rows, unplanted, per_dir = [], [], []
    for t in truths:
        name = t['name']
        if only and name not in only:
            continue
        path = os.path.join(HERE, name + '.report.json')
        if not os.path.exists(path):
            per_dir.append(dict(dir=name, report=None))
            continue
        rep = json.load(open(path))
        found = rep.get('episodes') or []
        used = set()
        for k, e in enumerate(t['episodes'], 1):
            a, b = epoch(e['mech_start']) - 2, epoch(e['mech_end']) + 4
            best, best_ov = None, 0.0
            for i, f in enumerate(found):
                fs, fe = f['start'], max(f['end'], f['start'] + 1)
                ov = min(b, fe) - max(a, fs)
                if ov > best_ov:
                    best, best_ov = i, ov
            f = found[best] if best is not None else None
            if best is not None:
                used.add(best)
            cause = f['cause'] if f else None
            conf = f['confidence'] if f else None
            if f is None:
                verdict = 'missed'
            elif cause == 'unattributed':
                verdict = 'unattributed'
            elif right(e['cause'], cause):
                verdict = 'right'
            else:
                verdict = 'WRONG'
            rows.append(dict(dir=name, n=k, rep=e['rep'], true=e['cause'], mech='%s..%s' % (
                e['mech_start'][11:21], e['mech_end'][11:21]), found_span=(
                '%s..%s' % (dt.datetime.fromtimestamp(f['start'], dt.timezone.utc).strftime('%H:%M:%S'),
                            dt.datetime.fromtimestamp(f['end'], dt.timezone.utc).strftime('%H:%M:%S'))
                if f else '-'), cause=cause, confidence=conf, secondary=f.get('secondary_cause') if f else None,
                freeze_s=f.get('freeze_seconds') if f else None, verdict=verdict,
                evidence=f.get('evidence') if f else None, missing=f.get('missing') if f else None))
        for i, f in enumerate(found):
            if i not in used:
                # an episode overlapping a planted span but not chosen as its best match is still not "unplanted"
                overl = any(min(epoch(e['mech_end']) + 4, max(f['end'], f['start'] + 1))
                            - max(epoch(e['mech_start']) - 2, f['start']) > 0 for e in t['episodes'])
                unplanted.append(dict(dir=name, start=dt.datetime.fromtimestamp(f['start'], dt.timezone.utc)
                                      .strftime('%H:%M:%S'), end=dt.datetime.fromtimestamp(f['end'], dt.timezone.utc)
                                      .strftime('%H:%M:%S'), cause=f['cause'], confidence=f['confidence'],
                                      freeze_s=f.get('freeze_seconds'), overlaps_planted=overl,
                                      evidence=f.get('evidence')))
        per_dir.append(dict(dir=name, report=os.path.basename(path), verdict=rep.get('verdict'),
                            headline=rep.get('headline'), reconciliation=rep.get('reconciliation'),
                            found=len(found), planted=len(t['episodes'])))
    n = len(rows)
    cnt = dict(
        planted=n,
        detected=sum(1 for r in rows if r['verdict'] != 'missed'),
        right_any=sum(1 for r in rows if r['verdict'] == 'right'),
        right_attributed=sum(1 for r in rows if r['verdict'] == 'right' and r['confidence'] == 'attributed'),
        right_most_likely=sum(1 for r in rows if r['verdict'] == 'right' and r['confidence'] == 'most_likely'),
        wrong_attributed=sum(1 for r in rows if r['verdict'] == 'WRONG' and r['confidence'] == 'attributed'),
        wrong_most_likely=sum(1 for r in rows if r['verdict'] == 'WRONG' and r['confidence'] == 'most_likely'),
        unattributed=sum(1 for r in rows if r['verdict'] == 'unattributed'),
        missed=sum(1 for r in rows if r['verdict'] == 'missed'),
        unplanted_found=sum(1 for u in unplanted if not u['overlaps_planted']),
        extra_overlapping=sum(1 for u in unplanted if u['overlaps_planted']),
        unplanted_on_clean=sum(1 for u in unplanted if 'clean' in u['dir']))
    by_cause = {}
    for r in rows:
        c = by_cause.setdefault(r['true'], dict(planted=0, right=0, right_attributed=0, wrong_attributed=0))
        c['planted'] += 1
        c['right'] += r['verdict'] == 'right'
        c['right_attributed'] += r['verdict'] == 'right' and r['confidence'] == 'attributed'
        c['wrong_attributed'] += r['verdict'] == 'WRONG' and r['confidence'] == 'attributed'
    json.dump(dict(counts=cnt, by_cause=by_cause, rows=rows, unplanted=unplanted, dirs=per_dir),
              open(os.path.join(HERE, 'score.json'), 'w'), indent=1)
    out = ['# Held-out score', '', '| dir | # | rep | true cause | mechanism (UTC) | found episode | cause | confidence '
           '| secondary | freeze-s | verdict |', '|---|---|---|---|---|---|---|---|---|---|---|']
    for r in rows:
        out.append('| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            r['dir'], r['n'], r['rep'], r['true'], r['mech'], r['found_span'], r['cause'] or '-',
            r['confidence'] or '-', r['secondary'] or '-', r['freeze_s'] if r['freeze_s'] is not None else '-',
            r['verdict']))
    out += ['', '## Counts', '']
    for k, v in cnt.items():
        out.append('- %s: %d' % (k, v))
    out += ['', '## By true cause', '', '| cause | planted | right | right+attributed | wrong+attributed |',
            '|---|---|---|---|---|']
    for c, v in sorted(by_cause.items()):
        out.append('| %s | %d | %d | %d | %d |' % (c, v['planted'], v['right'], v['right_attributed'],
                                                   v['wrong_attributed']))
    out += ['', '## Episodes found that were not planted', '']
    if not unplanted:
        out.append('none')
    for u in unplanted:
        out.append('- %s %s..%s %s (%s), %s freeze-s%s' % (u['dir'], u['start'], u['end'], u['cause'],
                                                            u['confidence'], u['freeze_s'],
                                                            ' (overlaps a planted span; a second match)'
                                                            if u['overlaps_planted'] else ''))
        for ev in u['evidence'] or []:
            out.append('    - %s' % ev)
    out += ['', '## Confident wrong answers (wrong cause, attributed) with the analyzer\'s evidence', '']
    wrong = [r for r in rows if r['verdict'] == 'WRONG' and r['confidence'] == 'attributed']
    if not wrong:
        out.append('none')
    for r in wrong:
        out.append('- %s #%d: planted %s at %s; found %s (attributed) at %s; missing %s' % (
            r['dir'], r['n'], r['true'], r['mech'], r['cause'], r['found_span'], r['missing']))
        for ev in r['evidence'] or []:
            out.append('    - %s' % ev)
    out += ['', '## Other wrong or unattributed answers', '']
    other = [r for r in rows if r['verdict'] in ('WRONG', 'unattributed', 'missed') and not (
        r['verdict'] == 'WRONG' and r['confidence'] == 'attributed')]
    if not other:
        out.append('none')
    for r in other:
        out.append('- %s #%d: planted %s at %s; %s %s (%s) at %s; missing %s' % (
            r['dir'], r['n'], r['true'], r['mech'], r['verdict'], r['cause'], r['confidence'], r['found_span'],
            r['missing']))
        for ev in r['evidence'] or []:
            out.append('    - %s' % ev)
    out += ['', '## Per directory', '', '| dir | verdict | reconciliation | planted | found | headline |',
            '|---|---|---|---|---|---|']
    for d in per_dir:
        if d.get('report') is None:
            out.append('| %s | no report | | | | |' % d['dir'])
        else:
            out.append('| %s | %s | %s | %d | %d | %s |' % (d['dir'], d['verdict'], d['reconciliation'],
                                                          d['planted'], d['found'], d['headline']))
    open(os.path.join(HERE, 'SCORE.md'), 'w').write('\n'.join(out) + '\n')
    print('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv)
