#!/usr/bin/env python3
"""Per-second view of an evidence directory as the files say it (k6, PI, EM): for checking realism by eye."""
import collections, glob, gzip, json, math, os, sys, datetime as dt
d = sys.argv[1]; lo, hi = float(sys.argv[2]), float(sys.argv[3])
man = json.load(open(os.path.join(d, 'manifest.json')))
t0 = dt.datetime.fromisoformat(man['repeats'][0]['start'].replace('Z', '+00:00')).timestamp()
lat = collections.defaultdict(list); drops = collections.Counter()
for f in glob.glob(os.path.join(d, 'k6-*')):
    op = gzip.open if f.endswith('.gz') else open
    for line in op(f, 'rt'):
        if '"http_req_duration"' in line and '"Point"' in line:
            p = json.loads(line); t = dt.datetime.fromisoformat(p['data']['time'][:26] + ('Z' if p['data']['time'].endswith('Z') else p['data']['time'][-6:])).timestamp() if False else None
            s = p['data']['time']; ts = dt.datetime.fromisoformat(s[:19] + s[-6:] if not s.endswith('Z') else s[:19] + '+00:00').timestamp()
            lat[int(ts - t0)].append(p['data']['value'])
        elif '"dropped_iterations"' in line and '"Point"' in line:
            p = json.loads(line); s = p['data']['time']; ts = dt.datetime.fromisoformat(s[:19] + ('+00:00' if s.endswith('Z') else s[-6:])).timestamp()
            drops[int(ts - t0)] += 1
pi = collections.defaultdict(dict)
for f in glob.glob(os.path.join(d, 'pi-*')):
    txt = open(f).read()
    resps = json.loads(txt) if txt.lstrip().startswith('[') else [json.loads(l) for l in txt.splitlines() if l.strip()]
    for r in resps:
        for m in r['MetricList']:
            dims = m['Key'].get('Dimensions')
            if not dims: continue
            k = dims['db.wait_event.name'] if dims['db.wait_event.name'] == 'CPU' else dims['db.wait_event.type'] + ':' + dims['db.wait_event.name']
            for p in m['DataPoints']:
                if p['Value']:
                    ts = dt.datetime.fromisoformat(p['Timestamp']).timestamp()
                    pi[int(ts - t0)][k] = p['Value']
em = {}
for f in glob.glob(os.path.join(d, 'rds-os-*')):
    for l in open(f):
        doc = json.loads(l); ts = dt.datetime.fromisoformat(doc['timestamp'].replace('Z', '+00:00')).timestamp()
        em[int(ts - t0) - 1] = doc['diskIO'][0]
for s in range(int(lo), int(hi)):
    xs = sorted(lat.get(s, []))
    if xs:
        n = len(xs); p50 = xs[n // 2]; mx = xs[-1]; o50 = sum(1 for x in xs if x > 50) / n
        fr = 'F' if mx > 150 and o50 > 0.1 else ' '
    else:
        n, p50, mx, o50, fr = 0, 0, 0, 0, ' '
    e = em.get(s)
    es = 'w%5.0f sz%5.1f q%6.1f aw%6.1f' % (e['writeIOsPS'], e['avgReqSz'], e['avgQueueLen'], e['await']) if e else ''
    w = ' '.join('%s=%g' % kv for kv in sorted(pi.get(s, {}).items(), key=lambda kv: -kv[1]))
    print('%4d %s n%4d p50%8.1f max%8.1f >50:%4.0f%% dr%3d | %s | %s' % (s, fr, n, p50, mx, o50 * 100, drops[s], es, w))
