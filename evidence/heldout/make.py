#!/usr/bin/env python3
"""Regenerates the held-out RDS-shaped evidence directories under out/ beside this script (Python 3 stdlib only).

Deterministic: every directory has its own seed and every stream its own random generator, so
`python3 make.py` always writes the same bytes (gzip with mtime 0).

The data come from a small discrete-event model of what an RDS rig really does, not from the analyzer's rules:

  k6 (constant-arrival-rate, VU pool, its own CPU) -> app (JVM, GC pauses, HikariCP pool of P connections, FIFO)
  -> Postgres backend: INSERT, UPDATE tenant_counters (row lock, FIFO queue per row), COMMIT
  -> WAL flush with group commit (one WALWriteLock holder flushes for everyone waiting; followers wait for it)
  -> EBS volume (flush duration = write+fsync latency; under a saturated volume = its queue wait).

Planted mechanisms act on that model only (a vacuum's WAL/FPI burst makes flushes wait in a deep EBS queue, a
checkpoint sync on a depleted gp2 volume pins IOPS at its 300 baseline, a backend that must create a 64 MB WAL
segment holds WALWriteLock while it zero-fills it, a rollup transaction holds every tenant_counters row, the k6
host loses its CPU). Every telemetry stream is derived from the same model: k6 points from the requests,
Performance Insights by sampling each session's state once a second, Enhanced Monitoring from the flushes and the
volume's state, CloudWatch as the minute averages of the device view, vmstat from each host's CPU, the log from
the planted and the routine background events. Ground truth goes to truth.json and TRUTH.md.
"""
import bisect
import collections
import datetime as dt
import gzip
import heapq
import io
import json
import math
import os
import random
import shutil
import sys

OUT = os.environ.get('HELDOUT_DIR') or os.path.join(os.path.dirname(os.path.abspath(__file__)), 'out')
os.makedirs(OUT, exist_ok=True)
SEG = 64 * 1024 * 1024          # RDS for PostgreSQL's WAL segment size
SHARED_BUFFERS = 496_580        # 8 KB buffers of a db.r6g.large (DBInstanceClassMemory/32768 in 8 KB units)
PG_VERSION = 160003

# ----------------------------------------------------------------------------------------------- helpers


def ln(rng, med, sigma):
    return med * math.exp(sigma * rng.gauss(0.0, 1.0))


def iso_utc(epoch_s, frac_digits=0):
    t = dt.datetime.fromtimestamp(epoch_s, dt.timezone.utc)
    if frac_digits:
        return t.strftime('%Y-%m-%dT%H:%M:%S.') + ('%06d' % t.microsecond)[:frac_digits] + 'Z'
    return t.strftime('%Y-%m-%dT%H:%M:%SZ')


def iso_off(epoch_s):
    return dt.datetime.fromtimestamp(int(epoch_s), dt.timezone.utc).strftime('%Y-%m-%dT%H:%M:%S+00:00')


def k6_time(epoch_us, ns_extra, offset_min):
    """Go's RFC3339Nano as k6 writes it: local offset, trailing zeros trimmed, 'Z' for UTC."""
    sec, us = divmod(epoch_us, 1_000_000)
    t = dt.datetime.fromtimestamp(sec + offset_min * 60, dt.timezone.utc)
    frac = ('%06d%03d' % (us, ns_extra)).rstrip('0')
    base = t.strftime('%Y-%m-%dT%H:%M:%S') + ('.' + frac if frac else '')
    if offset_min == 0:
        return base + 'Z'
    sign = '+' if offset_min > 0 else '-'
    return base + '%s%02d:%02d' % (sign, abs(offset_min) // 60, abs(offset_min) % 60)


def pg_ts(epoch_s):
    return dt.datetime.fromtimestamp(int(epoch_s), dt.timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')


def fnum(x, nd=6):
    s = ('%.' + str(nd) + 'f') % x
    s = s.rstrip('0').rstrip('.')
    return s if s not in ('', '-0') else '0'


def write_gz(path, text):
    with open(path, 'wb') as raw:
        with gzip.GzipFile(filename='', mode='wb', fileobj=raw, mtime=0, compresslevel=6) as gz:
            gz.write(text.encode())


# ----------------------------------------------------------------------------------------------- the model


class Req:
    __slots__ = ('rep', 'sched', 'send', 'tenant', 'w', 'arrive', 'db_start', 's1', 'x', 'xlab', 'upd_at',
                 'lock_wait', 'first_at', 'grant', 'commit_req', 'flush', 'done', 'resp_ready', 'proc', 'vu_free',
                 'extra_net')

    def __init__(self):
        self.lock_wait = False
        self.first_at = None
        self.flush = None
        self.x = 0.0
        self.xlab = None
        self.extra_net = 0.0


class Flush:
    __slots__ = ('start', 'end', 'leader', 'members', 'kind', 'nbytes')


class Model:
    """One directory's world. Times are seconds relative to the series' t0."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.rng = random.Random(cfg['seed'])
        self.events = cfg['events']
        self.heap = []
        self.seq = 0
        self.reqs = []
        self.flushes = []
        self.drops = []           # (rep, time)
        self.bg_sessions = []     # (start, end, labeller) background sessions PI can see
        self.wal_inits = []       # (start, end, by_backend)
        self.vu_inits = []
        self.wal_cum = cfg.get('wal_offset', 0.3) * SEG
        self.future_segs = cfg.get('future_segments', 40)
        self.wal_files = cfg.get('wal_files', 12)
        self.init_meta = []

    # --- event queue
    def push(self, t, kind, obj):
        self.seq += 1
        heapq.heappush(self.heap, (t, self.seq, kind, obj))

    def active(self, kind, t):
        for e in self.events:
            if e['kind'] == kind and e['start'] <= t < e['start'] + e['dur']:
                return e
        return None

    # --- the generator's clock: during a stall k6 progresses at `avail` of wall speed, then catches up
    def k6_clock(self, t):
        for e in self.events:
            if e['kind'] != 'genstall':
                continue
            a, b, av, cu = e['start'], e['start'] + e['dur'], e['avail'], e.get('catchup', 6.0)
            if t < a:
                return t
            p_b = a + av * (b - a)
            if t <= p_b:
                return a + (t - a) / av
            backlog_end = b + (b - p_b) / (cu - 1.0)
            if t < backlog_end:
                # progress after b: P(w) = p_b + cu (w - b); event at t processed when P(w) >= t
                return b + (t - p_b) / cu
        return t

    # --- app (JVM) stop-the-world pauses delay app-side handling
    def app_delay(self, t):
        i = bisect.bisect_right(self.gc_starts, t) - 1
        if i >= 0 and t < self.gc_starts[i] + self.gc_durs[i]:
            return self.gc_starts[i] + self.gc_durs[i]
        return t

    # --- WAL flush duration at time t for these members
    def flush_duration(self, t, nbytes):
        r = self.rng
        c = self.cfg
        dur = ln(r, c['flush_ms'], 0.3) / 1000.0 + nbytes / 125e6
        st = self.active('storm', t)
        if st:
            u = (t - st['start']) / st['dur']
            ramp = min(1.0, (t - st['start']) / 0.8)
            med = st['await_ms'] * (0.45 + 0.55 * ramp) * (1.0 + 0.25 * math.sin(math.pi * u))
            dur = ln(r, med, 0.45) / 1000.0
        sat = self.active('sat', t)
        if sat:
            ramp = min(1.0, (t - sat['start']) / 1.0)
            dur = ln(r, sat['await_ms'] * (0.35 + 0.65 * ramp), 0.35) / 1000.0
        if self.active('report', t):
            dur += 0.00015
        return dur

    def wal_pool_phase(self, t):
        return self.active('walpool', t)

    def start_flush(self, t, members):
        r = self.rng
        f = Flush()
        f.start = t
        f.leader = members[0]
        f.members = members
        f.nbytes = sum(m.w for m in members)
        f.kind = 'normal'
        before = self.wal_cum
        self.wal_cum += f.nbytes
        dur = self.flush_duration(t, f.nbytes)
        if int(self.wal_cum // SEG) > int(before // SEG):
            if self.future_segs > 0:
                self.future_segs -= 1
                dur += 0.0004  # opening a recycled segment
            else:
                # no segment left in the pool: whoever writes past the boundary creates one, holding WALWriteLock
                init = ln(r, self.cfg.get('init_s', 0.57), 0.06)
                by_backend = r.random() < 0.85
                f.kind = 'init' if by_backend else 'init_walwriter'
                dur = init + dur
                self.wal_files += 1
                self.wal_inits.append((t, t + dur, by_backend))
        f.end = t + dur
        for m in members:
            m.flush = f
        self.flushes.append(f)
        self.flush_busy = f
        self.push(f.end, 'flush_done', f)

    # --- run
    def run(self):
        c = self.cfg
        r = self.rng
        # app GC pauses (G1 young) every 6-14 s, 5-18 ms
        self.gc_starts, self.gc_durs = [], []
        t = -60.0
        while t < c['span'][1]:
            t += r.uniform(6, 14)
            self.gc_starts.append(t)
            self.gc_durs.append(ln(r, 0.009, 0.35))
        # tenants: zipf-like skew
        nt = c.get('tenants', 40)
        weights = [1.0 / (k + 1) ** c.get('zipf', 1.05) for k in range(nt)]
        tot = sum(weights)
        cum = []
        acc = 0.0
        for w in weights:
            acc += w / tot
            cum.append(acc)
        # k6 schedule
        for rep_i, (rs, rd) in enumerate(c['reps'], start=1):
            n = int(c['rate'] * rd)
            for i in range(n):
                q = Req()
                q.rep = rep_i
                q.sched = rs + i / c['rate']
                q.tenant = bisect.bisect_left(cum, r.random())
                q.w = int(ln(r, c['wal_per_req'], 0.15))
                self.push(self.k6_clock(q.sched) + r.uniform(0, 0.00008), 'k6_start', q)
        self.cur_rep = None
        self.pool_free = c['pool']
        self.app_q = collections.deque()
        self.rows = {}          # tenant -> [holder, deque(waiters)]
        self.flush_busy = None
        self.flush_pending = []
        for e in self.events:
            if e['kind'] == 'lock':
                self.push(e['start'], 'ext_lock', e)
                self.push(e['start'] + e['dur'], 'ext_unlock', e)
        while self.heap:
            t, _, kind, obj = heapq.heappop(self.heap)
            getattr(self, 'on_' + kind)(t, obj)
        return self

    # --- k6
    def on_k6_start(self, t, q):
        c = self.cfg
        if q.rep != self.cur_rep:
            # every repeat is its own `k6 run`: a fresh VU pool
            self.cur_rep = q.rep
            self.vus_alloc = c['prealloc_vus']
            self.vus_free = c['prealloc_vus']
            self.vu_pending = 0
        if self.vus_free > 0:
            self.vus_free -= 1
            q.send = t + 0.00005
            self.reqs.append(q)
            net = c['net_ms'] / 1000.0
            if self.rng.random() < 1.0 / 25000:
                q.extra_net = 0.2 + self.rng.uniform(0.0, 0.01)   # a SYN/segment retransmit: Linux' 200 ms RTO
            self.push(q.send + net + q.extra_net, 'app_arrive', q)
        else:
            self.drops.append((q.rep, t))
            if self.vus_alloc + self.vu_pending < c['max_vus']:
                self.vu_pending += 1
                self.push(self.k6_clock(t + self.rng.uniform(0.005, 0.03)), 'vu_ready', None)

    def on_vu_ready(self, t, _):
        self.vu_pending -= 1
        self.vus_alloc += 1
        self.vus_free += 1
        self.vu_inits.append((self.cur_rep, t))

    def on_app_arrive(self, t, q):
        t2 = self.app_delay(t) + ln(self.rng, self.cfg['app_in_ms'], 0.5) / 1000.0
        q.arrive = t2
        if self.pool_free > 0:
            self.pool_free -= 1
            self.push(t2 + 0.00003, 'db_start', q)
        else:
            self.app_q.append(q)

    def on_db_start(self, t, q):
        r = self.rng
        c = self.cfg
        q.db_start = t
        q.s1 = ln(r, c['stmt_ms'], 0.45) / 1000.0
        st = self.active('storm', t)
        sat = self.active('sat', t)
        if st and r.random() < 0.6:
            q.x = ln(r, 0.008, 0.8)
            q.xlab = r.choices(['IO:WALWrite', 'LWLock:WALWrite', 'LWLock:WALInsert'], [0.4, 0.3, 0.3])[0]
        elif sat and r.random() < 0.3:
            q.x = ln(r, 0.02, 0.6)
            q.xlab = r.choices(['IO:WALWrite', 'IO:DataFileWrite'], [0.6, 0.4])[0]
        elif self.active('report', t):
            # a parallel report query keeps both vCPUs busy: the INSERT waits its turn for a CPU
            q.x = ln(r, 0.0011, 0.6)
            q.xlab = 'CPU'
        elif r.random() < 0.02:
            # the odd slow statement: a B-tree page split, a catalog cache miss, an index page read from disk
            q.x = ln(r, 0.003, 0.5)
            q.xlab = 'IO:DataFileRead' if r.random() < 0.3 else 'CPU'
        self.push(t + q.s1 + q.x, 'upd', q)

    def row(self, k):
        v = self.rows.get(k)
        if v is None:
            v = [None, collections.deque()]
            self.rows[k] = v
        return v

    def on_upd(self, t, q):
        q.upd_at = t
        row = self.row(q.tenant)
        if row[0] is None and not row[1]:
            row[0] = q
            q.grant = t
            self.push(t + ln(self.rng, self.cfg['upd_ms'], 0.3) / 1000.0, 'commit', q)
        else:
            q.lock_wait = True
            if not row[1]:
                q.first_at = t
            row[1].append(q)

    def grant_next(self, t, k):
        row = self.row(k)
        row[0] = None
        if row[1]:
            nxt = row[1].popleft()
            row[0] = nxt
            if row[1] and isinstance(row[1][0], Req):
                row[1][0].first_at = t
            if isinstance(nxt, Req):
                nxt.grant = t + 0.00005
                self.push(nxt.grant + ln(self.rng, self.cfg['upd_ms'], 0.3) / 1000.0, 'commit', nxt)

    def on_ext_lock(self, t, e):
        for k in range(self.cfg.get('tenants', 40)):
            row = self.row(k)
            if row[0] is None and not row[1]:
                row[0] = 'EXT'
            else:
                row[1].append('EXT')
        self.bg_sessions.append((t, t + e['dur'], 'rollup'))

    def on_ext_unlock(self, t, e):
        for k in range(self.cfg.get('tenants', 40)):
            row = self.row(k)
            if row[0] == 'EXT':
                self.grant_next(t, k)
            elif 'EXT' in row[1]:
                row[1].remove('EXT')
                if row[1] and isinstance(row[1][0], Req) and row[1][0].first_at is None:
                    row[1][0].first_at = t

    def on_commit(self, t, q):
        q.commit_req = t
        if self.flush_busy is None:
            self.start_flush(t, [q])
        else:
            self.flush_pending.append(q)

    def on_flush_done(self, t, f):
        for m in f.members:
            m.done = t
            self.grant_next(t, m.tenant)
            ta = self.app_delay(t)
            # the connection goes back to the pool once the app has read the commit's result
            self.push(ta + 0.00002, 'release', m)
            q_out = ta + ln(self.rng, self.cfg['app_out_ms'], 0.3) / 1000.0 + self.cfg['net_ms'] / 1000.0
            m.resp_ready = q_out
            self.push(q_out, 'k6_resp', m)
        self.flush_busy = None
        if self.flush_pending:
            members, self.flush_pending = self.flush_pending, []
            self.start_flush(t, members)

    def on_release(self, t, q):
        if self.app_q:
            nxt = self.app_q.popleft()
            self.push(t + 0.00002, 'db_start', nxt)
        else:
            self.pool_free += 1

    def on_k6_resp(self, t, q):
        p = self.k6_clock(t) + self.rng.uniform(0.00001, 0.00012)
        q.proc = p
        self.push(p + 0.00015, 'vu_back', q)

    def on_vu_back(self, t, q):
        q.vu_free = t
        if q.rep == self.cur_rep:
            self.vus_free += 1


# ----------------------------------------------------------------------------------------------- per-second views


class Views:
    """Per-second facts derived from the model: what each stream reports."""

    def __init__(self, m):
        self.m = m
        c = m.cfg
        self.lo, self.hi = int(math.floor(c['span'][0])), int(math.ceil(c['span'][1]))
        n = self.hi - self.lo
        self.flush_n = [0] * n
        self.flush_b = [0] * n
        self.commits = [0] * n
        self.arrivals = [0] * n
        self.k6_sends = [0] * n
        self.k6_done = [0] * n
        for f in m.flushes:
            i = int(math.floor(f.end)) - self.lo
            if 0 <= i < n:
                self.flush_n[i] += 1
                self.flush_b[i] += f.nbytes
                self.commits[i] += len(f.members)
        for q in m.reqs:
            i = int(math.floor(q.arrive)) - self.lo
            if 0 <= i < n:
                self.arrivals[i] += 1
            i = int(math.floor(q.send)) - self.lo
            if 0 <= i < n:
                self.k6_sends[i] += 1
            i = int(math.floor(q.proc)) - self.lo
            if 0 <= i < n:
                self.k6_done[i] += 1

    def idx(self, s):
        return s - self.lo

    def frac_active(self, kind, s):
        """Share of second [s, s+1) covered by an event of this kind, and the event."""
        best, ev = 0.0, None
        for e in self.m.events:
            if e['kind'] != kind:
                continue
            a, b = e['start'], e['start'] + e['dur']
            ov = max(0.0, min(b, s + 1) - max(a, s))
            if ov > best:
                best, ev = ov, e
        return best, ev


# ----------------------------------------------------------------------------------------------- Performance Insights


def pi_samples(m, offset):
    """One sample a second of every active session (pool connections and background workers), as PI takes it."""
    c = m.cfg
    lo, hi = int(c['span'][0]), int(c['span'][1])
    rng = random.Random(c['seed'] * 7 + 3)
    counts = {s: collections.Counter() for s in range(lo, hi)}

    def inst(a, b):
        k0 = math.ceil(a - offset)
        k1 = math.floor(b - offset - 1e-12)
        return range(max(k0, lo), min(k1, hi - 1) + 1)

    for q in m.reqs:
        if q.db_start is None:
            continue
        # statement
        for s in inst(q.db_start, q.db_start + q.s1):
            counts[s]['CPU'] += 1
        if q.x:
            for s in inst(q.db_start + q.s1, q.db_start + q.s1 + q.x):
                counts[s][q.xlab] += 1
        if q.lock_wait:
            for s in inst(q.upd_at, q.grant):
                tau = s + offset
                first = q.first_at is not None and q.first_at <= tau
                counts[s]['Lock:transactionid' if first else 'Lock:tuple'] += 1
        for s in inst(q.grant, q.commit_req):
            counts[s]['CPU'] += 1
        f = q.flush
        for s in inst(q.commit_req, q.done):
            tau = s + offset
            if f.leader is q and tau >= f.start:
                if f.kind == 'init':
                    u = (tau - f.start) / (f.end - f.start)
                    counts[s]['IO:WALInitWrite' if u < 0.9 else 'IO:WALInitSync'] += 1
                elif f.kind == 'init_walwriter':
                    counts[s]['LWLock:WALWrite'] += 1
                else:
                    counts[s]['IO:WALSync' if rng.random() < 0.85 else 'IO:WALWrite'] += 1
            else:
                counts[s]['LWLock:WALWrite'] += 1
    for a, b, what in m.bg_sessions:
        for s in inst(a, b):
            if what == 'rollup':
                lab = 'CPU'
            elif what == 'vacuum_storm':
                lab = rng.choices(['IO:WALSync', 'LWLock:WALWrite', 'IO:DataFileWrite', 'CPU', 'IO:DataFileRead'],
                                  [0.3, 0.25, 0.2, 0.15, 0.1])[0]
            elif what == 'vacuum_slow':
                lab = rng.choices(['IO:DataFileRead', 'IO:DataFileWrite', 'CPU'], [0.4, 0.35, 0.25])[0]
            elif what == 'report':
                lab = rng.choices(['CPU', 'IO:DataFileRead'], [0.55, 0.45])[0]
            else:
                lab = 'CPU'
            counts[s][lab] += 1
    return counts


def pi_responses(m, counts, ident):
    """GetResourceMetrics responses, one per minute, db.load.avg total and grouped by db.wait_event (Limit 10)."""
    out = []
    secs = sorted(counts)
    minutes = sorted({s - (s % 60) for s in secs})
    t0 = m.cfg['t0']
    for mn in minutes:
        rng_secs = [s for s in secs if mn <= s < mn + 60]
        tot = collections.Counter()
        for s in rng_secs:
            tot.update(counts[s])
        dims = [k for k, _ in tot.most_common(10)]
        ml = [{'Key': {'Metric': 'db.load.avg'},
               'DataPoints': [{'Timestamp': iso_off(t0 + s), 'Value': float(sum(counts[s].values()))}
                              for s in rng_secs]}]
        for d in dims:
            typ, name = ('CPU', 'CPU') if d == 'CPU' else d.split(':', 1)
            ml.append({'Key': {'Metric': 'db.load.avg',
                               'Dimensions': {'db.wait_event.type': typ, 'db.wait_event.name': name}},
                       'DataPoints': [{'Timestamp': iso_off(t0 + s), 'Value': float(counts[s].get(d, 0))}
                                      for s in rng_secs]})
        out.append({'AlignedStartTime': iso_off(t0 + mn), 'AlignedEndTime': iso_off(t0 + mn + 60),
                    'Identifier': ident, 'MetricList': ml})
    return out


# ----------------------------------------------------------------------------------------------- device view (EM)


def device_view(m, v):
    """Per second: the RDS instance's CPU, memory and rdsdev disk as Enhanced Monitoring reports them."""
    c = m.cfg
    rng = random.Random(c['seed'] * 11 + 5)
    disk = c['disk']
    rows = {}
    dirty = 30_000.0
    load1 = 0.6
    for s in range(v.lo, v.hi):
        i = v.idx(s)
        fl, fb, cm = v.flush_n[i], v.flush_b[i], v.commits[i]
        # WAL writes: one request per flush (two when it spans a page boundary now and then)
        # WAL is written in whole 8 KB pages from the page holding the last write: a small commit rewrites its page
        per_flush = fb / fl if fl else 0.0
        w_kb = fl * 8.0 * (per_flush / 8192.0 + 0.6)
        w_ios = fl * (1.0 + per_flush / 262144.0)
        # heap/index pages the checkpointer, bgwriter and the kernel write back, partly merged
        data_kb = max(0.0, cm * c['wal_per_req'] / 1024.0 * rng.uniform(0.4, 0.9))
        if int(s) % 5 == 0:
            data_kb *= 2.5
        data_ios = data_kb / rng.uniform(24, 96)
        ios = w_ios + data_ios + rng.uniform(0.5, 3.0)
        kb = w_kb + data_kb + rng.uniform(2, 20)
        r_ios = rng.uniform(0.0, 2.5)
        r_kb = r_ios * 8.0
        await_ms = ln(rng, c['flush_ms'] * 1.1, 0.15)
        cpu_user = 2.2 + 0.048 * cm + rng.uniform(-0.6, 0.6)
        cpu_sys = 1.1 + 0.02 * cm + rng.uniform(-0.3, 0.3)
        cpu_wait = 0.2 + rng.uniform(0, 0.4)
        blocked = 0
        state = 'normal'
        fs, st = v.frac_active('storm', s)
        fsat, sat = v.frac_active('sat', s)
        frep, rep = v.frac_active('report', s)
        if fs > 0:
            state = 'storm'
            cap = disk['iops']
            s_ios = cap * rng.uniform(0.972, 1.0)
            s_sz = rng.uniform(6.0, 7.6)
            u = (s + 0.5 - st['start']) / st['dur']
            s_await = st['await_ms'] * (0.7 + 0.6 * math.sin(math.pi * min(1.0, max(0.0, u)))) * rng.uniform(0.9, 1.1)
            ios = fs * s_ios + (1 - fs) * ios
            kb = fs * s_ios * s_sz + (1 - fs) * kb
            await_ms = fs * s_await + (1 - fs) * await_ms
            cpu_wait += fs * rng.uniform(22, 38)
            cpu_sys += fs * rng.uniform(2, 4)
            cpu_user += fs * rng.uniform(3, 6)
            blocked = int(fs * rng.uniform(8, 18))
            dirty += fs * 40_000
        if fsat > 0:
            state = 'sat'
            cap = disk['iops']
            s_ios = cap * rng.uniform(0.985, 1.003)
            s_sz = rng.uniform(40, 82)
            s_await = sat['await_ms'] * rng.uniform(0.8, 1.3)
            ios = fsat * s_ios + (1 - fsat) * ios
            kb = fsat * s_ios * s_sz + (1 - fsat) * kb
            await_ms = fsat * s_await + (1 - fsat) * await_ms
            cpu_wait += fsat * rng.uniform(35, 55)
            blocked = int(fsat * rng.uniform(6, 14))
            dirty = max(20_000.0, dirty * 0.9)
        # a backend zero-filling a 64 MB segment
        for a, b, _ in m.wal_inits:
            ov = max(0.0, min(b, s + 1) - max(a, s))
            if ov > 0:
                add_kb = 65536.0 * ov / (b - a)
                ios += add_kb / 128.0
                kb += add_kb
                await_ms = max(await_ms, rng.uniform(9, 22) * ov / (b - a) + await_ms)
                cpu_wait += 6 * ov
                state = 'walinit'
        if frep > 0:
            rr = rng.uniform(700, 980) * frep
            r_ios += rr
            r_kb += rr * rng.uniform(118, 128)
            cpu_user += frep * rng.uniform(74, 80)
            cpu_wait = min(cpu_wait, 100 - cpu_user - cpu_sys - 0.5)
            await_ms *= 1.1
        if state == 'normal':
            dirty = max(8_000.0, min(90_000.0, dirty * 0.9 + rng.uniform(0, 9000)))
        tot_ios = ios + r_ios
        qlen = tot_ios * await_ms / 1000.0
        util = min(100.0, tot_ios * 0.55 / 10.0 + (100.0 if state in ('storm', 'sat') else 0.0))
        idle = max(0.0, 100.0 - cpu_user - cpu_sys - cpu_wait - 0.2)
        load1 = load1 * math.exp(-1 / 60.0) + (cpu_user + cpu_sys) / 50.0 * (1 - math.exp(-1 / 60.0)) \
            + blocked * (1 - math.exp(-1 / 60.0))
        rows[s] = dict(state=state, w_ios=ios, w_kb=kb, r_ios=r_ios, r_kb=r_kb, await_ms=await_ms, qlen=qlen,
                       util=util, user=cpu_user, sys=cpu_sys, wait=cpu_wait, idle=idle, dirty=dirty,
                       blocked=blocked, load1=load1, net_rx=v.arrivals[i] * c['body_bytes'],
                       net_tx=v.arrivals[i] * 420)
    return rows


def em_document(m, s, d, rng):
    c = m.cfg
    t = c['t0'] + s + 1
    tot = d['user'] + d['sys'] + d['wait'] + 0.2
    mem_total = 16_009_612
    free = int(612_000 + rng.uniform(-9000, 9000))
    doc = collections.OrderedDict()
    doc['engine'] = 'POSTGRES'
    doc['instanceID'] = c['instance_id']
    doc['instanceResourceID'] = c['resource_id']
    doc['timestamp'] = iso_utc(t)
    doc['version'] = 1
    doc['uptime'] = '%d days, %s' % (c['uptime_days'], dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime('%H:%M:%S'))
    doc['numVCPUs'] = 2
    doc['cpuUtilization'] = {'guest': 0.0, 'irq': round(rng.uniform(0.05, 0.3), 2), 'system': round(d['sys'], 2),
                             'wait': round(d['wait'], 2), 'idle': round(d['idle'], 2), 'user': round(d['user'], 2),
                             'total': round(100.0 - d['idle'], 2), 'steal': 0.0, 'nice': round(rng.uniform(0, 0.05), 2)}
    doc['loadAverageMinute'] = {'one': round(d['load1'], 2), 'five': round(d['load1'] * 0.8 + 0.1, 2),
                                'fifteen': round(d['load1'] * 0.6 + 0.15, 2)}
    doc['memory'] = {'writeback': int(d['dirty'] * 0.3) if d['state'] in ('sat', 'storm') else int(rng.uniform(0, 400)),
                     'hugePagesFree': 0, 'hugePagesRsvd': 0, 'hugePagesSurp': 0, 'cached': 12_104_220 + int(s * 3),
                     'hugePagesSize': 2048, 'free': free, 'hugePagesTotal': 0, 'inactive': 6_201_332,
                     'pageTables': 61_240, 'dirty': int(d['dirty']), 'mapped': 4_388_120, 'active': 8_716_400,
                     'total': mem_total, 'slab': 401_220, 'buffers': 212_688}
    doc['tasks'] = {'sleeping': 262, 'zombie': 0, 'running': max(1, int((d['user'] + d['sys']) / 50 + rng.random())),
                    'stopped': 0, 'total': 264 + d['blocked'], 'blocked': d['blocked']}
    doc['swap'] = {'cached': 0, 'total': 4_095_996, 'free': 4_095_996, 'in': 0.0, 'out': 0.0}
    doc['network'] = [{'interface': 'eth0', 'rx': round(d['net_rx'], 1), 'tx': round(d['net_tx'], 1)}]
    dio = {'writeKbPS': round(d['w_kb'], 2), 'readIOsPS': round(d['r_ios'], 2), 'await': round(d['await_ms'], 2),
           'readKbPS': round(d['r_kb'], 2), 'rrqmPS': 0.0, 'util': round(d['util'], 2),
           'avgQueueLen': round(d['qlen'], 2), 'tps': round(d['w_ios'] + d['r_ios'], 2),
           'readKb': int(d['r_kb']), 'device': 'rdsdev', 'writeKb': int(d['w_kb']),
           'avgReqSz': round((d['w_kb'] + d['r_kb']) / max(0.01, d['w_ios'] + d['r_ios']), 2),
           'wrqmPS': round(rng.uniform(0, 3), 2), 'writeIOsPS': round(d['w_ios'], 2)}
    doc['diskIO'] = [dio]
    if c.get('physical_device'):
        p = dict(dio)
        p['device'] = 'nvme1n1'
        doc['physicalDeviceIO'] = [p]
    doc['fileSys'] = [{'used': 41_227_412, 'name': 'rdsfilesys', 'usedFiles': 3_912, 'usedFilePercent': 0.03,
                       'maxFiles': 13_107_200, 'mountPoint': '/rdsdbdata', 'total': 205_374_440,
                       'usedPercent': 20.07}]
    doc['processList'] = [
        {'vss': 4_491_620, 'name': 'postgres', 'tgid': 7261, 'vmlimit': 'unlimited', 'parentID': 1,
         'memoryUsedPc': 1.21, 'cpuUsedPc': 0.0, 'id': 7261, 'rss': 194_220},
        {'vss': 0, 'name': 'OS processes', 'tgid': 0, 'vmlimit': '', 'parentID': 0, 'memoryUsedPc': 2.07,
         'cpuUsedPc': round(rng.uniform(0.3, 1.2), 2), 'id': 0, 'rss': 0},
        {'vss': 0, 'name': 'RDS processes', 'tgid': 0, 'vmlimit': '', 'parentID': 0, 'memoryUsedPc': 6.1,
         'cpuUsedPc': round(rng.uniform(0.5, 2.0), 2), 'id': 0, 'rss': 0}]
    return doc


# ----------------------------------------------------------------------------------------------- vmstat


def vmstat_text(m, v, host, rng):
    """`vmstat -n -t 1` of one host (procps-ng 3.3.17 as on Amazon Linux 2023: no gu column)."""
    c = m.cfg
    h = c['hosts'][host]
    lines = ['procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----',
             ' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC']
    free = h['free']
    cache = h['cache']
    t0 = c['t0']
    first = True
    skip_next = False
    for s in range(v.lo, v.hi):
        i = v.idx(s)
        if first:
            us, sy, idl, wa, st = 3, 1, 96, 0, 0
            lines.append('%2d %2d %6d %6d %6d %6d %4d %4d %5d %5d %4d %4d %2d %2d %2d %2d %2d %s' % (
                0, 0, 0, free, h['buff'], cache, 0, 0, 3, 21, 310, 402, us, sy, idl, wa, st, pg_ts(t0 + s)[:19]))
            first = False
            continue
        if skip_next:
            skip_next = False
            continue
        if h['role'] == 'load':
            rate = v.k6_sends[i] + v.k6_done[i]
            us_f = 1.0 + 0.035 * rate * h.get('cpu_per_req', 1.0)
            sy_f = 0.8 + 0.014 * rate * h.get('cpu_per_req', 1.0)
            r_ = int(rng.random() < us_f / 40) + int(rng.random() < 0.5)
            bo = int(rng.uniform(0, 40)) + (int(rate * 0.8 * rng.uniform(15, 25)) if s % 5 == 0 else 0)
            cache += int(rate * 0.25) if s % 5 == 0 else 0
        else:  # app: the JVM service (and k6 too when both share the host)
            rate = v.arrivals[i]
            us_f = 1.5 + 0.06 * rate
            sy_f = 0.9 + 0.025 * rate
            if h.get('runs_k6'):
                rate_k6 = v.k6_sends[i] + v.k6_done[i]
                us_f += 0.025 * rate_k6
                sy_f += 0.01 * rate_k6
            r_ = int(rng.random() < us_f / 30) + int(rng.random() < 0.4)
            bo = int(rng.uniform(0, 30)) + (int(rng.uniform(80, 300)) if s % 5 == 0 else 0)
        in_ = int(180 + 9 * rate + rng.uniform(-40, 40))
        cs = int(260 + 14 * rate + rng.uniform(-60, 60))
        st = 0
        stall = None
        for e in c['events']:
            if e['kind'] == 'genstall' and e['host'] == host:
                ov = max(0.0, min(e['start'] + e['dur'], s + 1) - max(e['start'], s))
                # the interloper starts a little before k6 starves and ends a little after
                if e['start'] - 0.3 < s + 1 and s < e['start'] + e['dur'] + 0.3:
                    stall = (e, ov)
        us_f += rng.uniform(-2.0, 2.0)
        sy_f += rng.uniform(-1.0, 1.0)
        if stall:
            e = stall[0]
            # the interloper (CPU hog / throttling) covers [start - 0.3, end + 0.3]: blend by its share of the line
            a, b = e['start'] - 0.3, e['start'] + e['dur'] + 0.3
            f = max(0.0, min(b, s + 1) - max(a, s))
            if e['mode'] == 'steal':
                st_f = rng.uniform(62, 76)
                us_s = rng.uniform(19, 28)
                sy_s = 100 - st_f - us_s - rng.uniform(0, 2)
            else:
                st_f = 0.0
                us_s = rng.uniform(86, 93)
                sy_s = 100 - us_s - rng.uniform(0, 1.5)
            st = int(round(f * st_f))
            us_f = f * us_s + (1 - f) * us_f
            sy_f = f * sy_s + (1 - f) * sy_f
            if f > 0.5:
                r_ = int(rng.uniform(4, 10))
            in_ = int(in_ * (1 - 0.4 * f))
            cs = int(cs * (1 - 0.5 * f) + 900 * f)
            if e.get('vmstat_late') and s == int(e['start'] + 1):
                skip_next = True   # vmstat itself was starved: one line came a second late
        us = int(round(us_f + rng.uniform(-0.5, 0.5)))
        sy = int(round(sy_f + rng.uniform(-0.5, 0.5)))
        us = max(0, min(100, us))
        sy = max(0, min(100 - us - st, sy))
        idl = max(0, 100 - us - sy - st)
        wa = 0
        free -= int(rng.uniform(-200, 260))
        lines.append('%2d %2d %6d %6d %6d %6d %4d %4d %5d %5d %4d %4d %2d %2d %2d %2d %2d %s' % (
            r_, 0, 0, free, h['buff'], cache, 0, 0, 0, bo, in_, cs, us, sy, idl, wa, st, pg_ts(t0 + s + 1)[:19]))
    return '\n'.join(lines) + '\n'


# ----------------------------------------------------------------------------------------------- CloudWatch


def cloudwatch(m, dev):
    c = m.cfg
    secs = sorted(dev)
    minutes = sorted({int(s - ((s + int(c['t0'])) % 60)) for s in secs})
    minutes = [mn for mn in minutes if all((mn + k) in dev for k in range(0, 60, 10))]
    res = collections.OrderedDict()
    names = ['WriteIOPS', 'ReadIOPS', 'WriteThroughput', 'WriteLatency', 'DiskQueueDepth', 'CPUUtilization',
             'FreeableMemory', 'DatabaseConnections']
    if c['disk']['kind'] == 'gp2':
        names.append('BurstBalance')
    for n in names:
        res[n] = ([], [])
    for mn in reversed(minutes):   # GetMetricData's default ScanBy: TimestampDescending
        pts = [dev[s] for s in range(mn, mn + 60) if s in dev]
        k = len(pts)
        w = sum(p['w_ios'] for p in pts) / k
        rd = sum(p['r_ios'] for p in pts) / k
        vals = {
            'WriteIOPS': w,
            'ReadIOPS': rd,
            'WriteThroughput': sum(p['w_kb'] for p in pts) / k * 1024.0,
            'WriteLatency': sum(p['await_ms'] * p['w_ios'] for p in pts) / max(1e-9, sum(p['w_ios'] for p in pts)) / 1000.0,
            'DiskQueueDepth': sum(p['qlen'] for p in pts) / k,
            'CPUUtilization': sum(100.0 - p['idle'] for p in pts) / k,
            'FreeableMemory': 10_410_000_000.0 + (mn % 7) * 1_000_000.0,
            'DatabaseConnections': float(c['pool'] + 3),
            'BurstBalance': 0.0,
        }
        ts = iso_off(c['t0'] + mn)
        for n in names:
            res[n][0].append(ts)
            res[n][1].append(round(vals[n], 6 if n == 'WriteLatency' else 4))
    out = {'MetricDataResults': [
        {'Id': n.lower().replace('%', ''), 'Label': n, 'Timestamps': tv[0], 'Values': tv[1], 'StatusCode': 'Complete'}
        for n, tv in res.items()], 'Messages': []}
    return out


# ----------------------------------------------------------------------------------------------- Postgres log


def vacuum_entry(ts, pid, table, d, rng):
    pages_total, scanned = d['pages_total'], d['pages_scanned']
    lines = ['%s::@:[%d]:LOG:  automatic vacuum of table "%s": index scans: 0' % (pg_ts(ts), pid, table),
             '\tpages: 0 removed, %d remain, %d scanned (%.2f%% of total)' % (pages_total, scanned,
                                                                             100.0 * scanned / pages_total),
             '\ttuples: %d removed, %d remain, %d are dead but not yet removable' % (
                 d.get('tuples_removed', 0), d['tuples_remain'], d.get('dead_not_removable', 0)),
             '\tremovable cutoff: %d, which was %d XIDs old when operation ended' % (d['cutoff'], d.get('xid_age', 3)),
             '\tfrozen: %d pages from table (%.2f%% of total) had %d tuples frozen' % (
                 d.get('frozen_pages', 0), 100.0 * d.get('frozen_pages', 0) / pages_total, d.get('tuples_frozen', 0)),
             '\tindex scan not needed: %d pages from table (%.2f%% of total) had %d dead item identifiers removed' % (
                 d.get('lp_pages', 0), 100.0 * d.get('lp_pages', 0) / pages_total, d.get('tuples_removed', 0)),
             '\tI/O timings: read: %.3f ms, write: %.3f ms' % (d.get('io_read_ms', 0.0), d.get('io_write_ms', 0.0)),
             '\tavg read rate: %.3f MB/s, avg write rate: %.3f MB/s' % (d['read_mbs'], d['write_mbs']),
             '\tbuffer usage: %d hits, %d misses, %d dirtied' % (d['hits'], d['misses'], d['dirtied']),
             '\tWAL usage: %d records, %d full page images, %d bytes' % (d['wal_records'], d['wal_fpi'], d['wal_bytes']),
             '\tsystem usage: CPU: user: %.2f s, system: %.2f s, elapsed: %.2f s' % (
                 d['cpu_user'], d['cpu_sys'], d['elapsed'])]
    return lines


def analyze_entry(ts, pid, table, elapsed, rng):
    return ['%s::@:[%d]:LOG:  automatic analyze of table "%s"' % (pg_ts(ts), pid, table),
            '\tI/O timings: read: %.3f ms, write: 0.000 ms' % rng.uniform(20, 90),
            '\tavg read rate: %.3f MB/s, avg write rate: %.3f MB/s' % (rng.uniform(8, 30), rng.uniform(0, 0.5)),
            '\tbuffer usage: %d hits, %d misses, %d dirtied' % (rng.randint(9000, 12000), rng.randint(200, 900),
                                                              rng.randint(0, 20)),
            '\tsystem usage: CPU: user: %.2f s, system: %.2f s, elapsed: %.2f s' % (
                elapsed * 0.7, elapsed * 0.05, elapsed)]


def checkpoint_complete(ts, pid, d):
    return ['%s::@:[%d]:LOG:  checkpoint complete: wrote %d buffers (%.1f%%); %d WAL file(s) added, %d removed, '
            '%d recycled; write=%.3f s, sync=%.3f s, total=%.3f s; sync files=%d, longest=%.3f s, average=%.3f s; '
            'distance=%d kB, estimate=%d kB' % (
                pg_ts(ts), pid, d['buffers'], 100.0 * d['buffers'] / SHARED_BUFFERS, d['added'], d['removed'],
                d['recycled'], d['write'], d['sync'], d['write'] + d['sync'] + d.get('other', 0.012), d['files'],
                d['longest'], d['sync'] / max(1, d['files']), d['distance'], d['estimate'])]


def pg_log(m, v):
    """The instance's postgresql.log entries (RDS prefix, UTC): routine background work plus the planted events."""
    c = m.cfg
    rng = random.Random(c['seed'] * 13 + 7)
    t0 = c['t0']
    entries = []   # (time, [lines])
    lo, hi = c['log_span']
    ckpt_pid = 571
    pid = [21000 + rng.randint(0, 4000)]

    def next_pid():
        pid[0] += rng.randint(3, 90)
        return pid[0]

    # timed checkpoints: start, then complete ~270 s later (checkpoint_completion_target 0.9 of 300 s)
    for ck in c['checkpoints']:
        st = ck['start']
        if lo <= st < hi:
            entries.append((st, ['%s::@:[%d]:LOG:  checkpoint starting: %s' % (pg_ts(t0 + st), ckpt_pid,
                                                                              ck.get('reason', 'time'))]))
        end = ck.get('end', st + 269.9 + ck.get('sync', 0.05))
        if lo <= end < hi:
            d = dict(buffers=ck.get('buffers', rng.randint(3500, 5200)), added=ck.get('added', 0),
                     removed=ck.get('removed', 0), recycled=ck.get('recycled', rng.randint(1, 3)),
                     write=ck.get('write', 269.8 + rng.uniform(0, 0.2)), sync=ck.get('sync', rng.uniform(0.02, 0.2)),
                     files=ck.get('files', rng.randint(30, 60)), longest=ck.get('longest', rng.uniform(0.005, 0.06)),
                     distance=ck.get('distance', int(c['wal_per_req'] * c['rate'] * 300 / 1024)),
                     estimate=ck.get('estimate', int(c['wal_per_req'] * c['rate'] * 300 / 1024 * 1.04)))
            entries.append((end, checkpoint_complete(t0 + end, ckpt_pid, d)))
    # routine autovacuum of the hot counter table (naptime 15 s on RDS), analyze now and then
    t = lo + rng.uniform(0, 15)
    n = 0
    while t < hi:
        p = next_pid()
        el = rng.uniform(0.004, 0.03)
        removed = int(c['rate'] * 15 * rng.uniform(0.8, 1.1))
        d = dict(pages_total=41, pages_scanned=41, tuples_removed=removed, tuples_remain=c.get('tenants', 40),
                 cutoff=88_000_000 + int(t * c['rate']), lp_pages=38, read_mbs=0.0, write_mbs=rng.uniform(0, 2),
                 hits=rng.randint(150, 260), misses=0, dirtied=rng.randint(30, 44),
                 wal_records=rng.randint(90, 160), wal_fpi=rng.randint(0, 3), wal_bytes=rng.randint(14000, 40000),
                 cpu_user=0.0, cpu_sys=0.0, elapsed=el)
        d['wal_bytes'] += d['wal_fpi'] * 8200
        entries.append((t + el, vacuum_entry(t0 + t + el, p, '%s.public.tenant_counters' % c['db'], d, rng)))
        n += 1
        if n % 4 == 0:
            entries.append((t + el + 0.01, analyze_entry(t0 + t + el + 0.01, p, '%s.public.tenant_counters' % c['db'],
                                                         0.01, rng)))
        t += 15 + rng.uniform(-0.5, 1.5)
    # planted and incidental vacuums of the written table
    for e in c['events']:
        if e['kind'] == 'storm':
            end = e['start'] + e['dur']
            pages = e['pages']
            fpi = int(pages * e['fpi_share'])
            recs = int(pages * 2.02 + rng.randint(0, 300))
            wal = fpi * 8196 + recs * 64 + rng.randint(0, 200000)
            d = dict(pages_total=e['pages_total'], pages_scanned=pages, tuples_remain=e['pages_total'] * 5,
                     cutoff=91_000_000 + int(end * 150), lp_pages=0, read_mbs=pages * 8 / 1024 * 0.05 / e['dur'],
                     write_mbs=pages * 8 / 1024 / e['dur'] * 0.92, hits=pages * 2 - 200, misses=int(pages * 0.05),
                     dirtied=pages + 3, wal_records=recs, wal_fpi=fpi, wal_bytes=wal, cpu_user=e['dur'] * 0.11,
                     cpu_sys=e['dur'] * 0.06, elapsed=e['dur'], io_read_ms=rng.uniform(20, 80),
                     io_write_ms=e['dur'] * 1000 * 0.55)
            e['log'] = dict(wal_bytes=wal, wal_fpi=fpi, wal_records=recs)
            entries.append((end, vacuum_entry(t0 + end, next_pid(), '%s.public.%s' % (c['db'], c['table']), d, rng)))
            entries.append((end + 0.4, analyze_entry(t0 + end + 0.4, pid[0], '%s.public.%s' % (c['db'], c['table']),
                                                     0.38, rng)))
        elif e['kind'] == 'vac_benign':
            end = e['end']
            pages = e['pages']
            fpi = e['fpi']
            recs = int(pages * 1.05)
            wal = fpi * 8196 + recs * 62
            d = dict(pages_total=e['pages_total'], pages_scanned=pages, tuples_remain=e['pages_total'] * 5,
                     cutoff=90_000_000 + int(end * 150), lp_pages=0, read_mbs=0.01,
                     write_mbs=pages * 8 / 1024 / e['elapsed'] * 0.3, hits=pages * 2, misses=3, dirtied=pages,
                     wal_records=recs, wal_fpi=fpi, wal_bytes=wal, cpu_user=e['elapsed'] * 0.02,
                     cpu_sys=e['elapsed'] * 0.01, elapsed=e['elapsed'], io_read_ms=0.4, io_write_ms=0.0)
            e['log'] = dict(wal_bytes=wal, wal_fpi=fpi, wal_records=recs)
            entries.append((end, vacuum_entry(t0 + end, next_pid(), '%s.public.%s' % (c['db'], c['table']), d, rng)))
    # lock waits (log_lock_waits = on, deadlock_timeout 1 s): backends that waited over a second
    if c.get('log_lock_waits'):
        ext_xid = 93_400_112
        for e in c['events']:
            if e['kind'] != 'lock':
                continue
            ext_pid = 30111
            nwait = 0
            xid_queue = []
            for q in m.reqs:
                if q.lock_wait and q.upd_at >= e['start'] - 0.01 and q.grant - q.upd_at > 1.0 \
                        and q.upd_at < e['start'] + e['dur']:
                    nwait += 1
                    bp = 14000 + 37 * nwait + q.tenant
                    first = q.first_at is not None and q.first_at <= q.upd_at + 1.0
                    prefix_c = '%s:10.0.2.15(%d):ingest@%s:[%d]:' % (pg_ts(t0 + q.upd_at + 1.0), 40000 + bp, c['db'], bp)
                    if first:
                        what = 'ShareLock on transaction %d' % ext_xid
                        ctx = 'while updating tuple (0,%d) in relation "tenant_counters"' % (q.tenant + 1)
                    else:
                        what = 'ExclusiveLock on tuple (0,%d) of relation 16488 of database 16401' % (q.tenant + 1)
                        ctx = None
                    if first:
                        xid_queue.append(bp)
                        queue = ', '.join(str(x) for x in xid_queue)
                    else:
                        queue = str(bp)
                    ls = [prefix_c + 'LOG:  process %d still waiting for %s after 1000.%03d ms' % (bp, what, rng.randint(20, 90)),
                          prefix_c + 'DETAIL:  Process holding the lock: %d. Wait queue: %s.' % (
                              ext_pid if first else 14000 + q.tenant, queue)]
                    if ctx:
                        ls.append(prefix_c + 'CONTEXT:  %s' % ctx)
                    ls.append(prefix_c + 'STATEMENT:  UPDATE tenant_counters SET events = events + 1, '
                                         'last_event_at = now() WHERE tenant_id = $1')
                    entries.append((q.upd_at + 1.0, ls))
                    pc2 = '%s:10.0.2.15(%d):ingest@%s:[%d]:' % (pg_ts(t0 + q.grant), 40000 + bp, c['db'], bp)
                    entries.append((q.grant, [pc2 + 'LOG:  process %d acquired %s after %.3f ms' % (
                        bp, what, (q.grant - q.upd_at) * 1000), pc2 + 'STATEMENT:  UPDATE tenant_counters SET events = '
                        'events + 1, last_event_at = now() WHERE tenant_id = $1']))
    entries.sort(key=lambda x: x[0])
    files = collections.OrderedDict()
    for t, ls in entries:
        if not (lo <= t < hi):
            continue
        hour = dt.datetime.fromtimestamp(t0 + t, dt.timezone.utc).strftime('%Y-%m-%d-%H')
        files.setdefault('postgresql.log.' + hour, []).extend(ls)
    return files


# ----------------------------------------------------------------------------------------------- DB sampler


def db_sampler(m, v):
    c = m.cfg
    rng = random.Random(c['seed'] * 17 + 1)
    out = []
    files = c.get('wal_files', 12)
    inits = sorted((a, b) for a, b, _ in m.wal_inits)
    live = 4_180_000
    ins_since = 212_000
    for s in range(v.lo, v.hi):
        i = v.idx(s)
        ts = c['t0'] + s + 1 + 0.21
        # rigscope's DB sampler counts only segment-named files (pg_ls_waldir() where name ~ '^[0-9A-F]{24}$'):
        # the xlogtemp.PID being zero-filled is renamed into place when its creation ends, and counts from then
        now = s + 1.21
        files_now = files + sum(1 for a, b in inits if b <= now)
        wal_bytes = files_now * SEG
        cm = v.commits[i]
        live += cm
        ins_since += cm
        out.append(collections.OrderedDict([
            ('ts', int(ts * 1_000_000)), ('serverVersionNum', PG_VERSION), ('intervalMs', 1000),
            ('wal', {'records': cm * 26 + rng.randint(0, 40), 'fpi': rng.randint(0, 4) + (cm // 40),
                     'bytes': v.flush_b[i] + rng.randint(0, 3000), 'buffersFull': 0}),
            ('checkpoints', {'timed': 2113, 'requested': 7, 'buffersWritten': 4_812_230, 'writeTimeMs': 5.71e8,
                             'syncTimeMs': 2.9e5}),
            ('walDir', {'files': files_now, 'bytes': wal_bytes}),
            ('vacuums', []),
            ('tables', [{'table': 'public.%s' % c['table'], 'nLiveTup': live, 'nDeadTup': 0,
                         'nInsSinceVacuum': ins_since, 'autovacuumCount': 311,
                         'lastAutovacuumUs': int((c['t0'] - 1490) * 1_000_000)}]),
            ('database', {'commits': cm + rng.randint(0, 3), 'rollbacks': 0, 'blksRead': rng.randint(0, 6),
                          'blksHit': cm * 62 + rng.randint(0, 300)}),
            ('io', {'autovacuumWrites': 0, 'autovacuumExtends': 0})]))
    return out


# ----------------------------------------------------------------------------------------------- k6 output

METRIC_DEFS = collections.OrderedDict([
    ('http_reqs', ('counter', 'default', [])),
    ('http_req_duration', ('trend', 'time', ['p(99)<500'])),
    ('http_req_blocked', ('trend', 'time', [])),
    ('http_req_connecting', ('trend', 'time', [])),
    ('http_req_tls_handshaking', ('trend', 'time', [])),
    ('http_req_sending', ('trend', 'time', [])),
    ('http_req_waiting', ('trend', 'time', [])),
    ('http_req_receiving', ('trend', 'time', [])),
    ('http_req_failed', ('rate', 'default', ['rate<0.01'])),
    ('data_sent', ('counter', 'data', [])),
    ('data_received', ('counter', 'data', [])),
    ('iteration_duration', ('trend', 'time', [])),
    ('iterations', ('counter', 'default', [])),
    ('vus', ('gauge', 'default', [])),
    ('vus_max', ('gauge', 'default', [])),
    ('dropped_iterations', ('counter', 'default', [])),
])


def k6_files(m, rng):
    """k6 --out json, one file per repeat; returns {rep: text} and per-rep facts."""
    c = m.cfg
    off = c.get('k6_offset_min', 0)
    url = c['url']
    http_tags = ('{"expected_response":"true","group":"","method":"POST","name":"%s","proto":"HTTP/1.1",'
                 '"scenario":"%s","status":"201","url":"%s"}' % (url, c['k6_scenario'], url))
    it_tags = '{"group":"","scenario":"%s"}' % c['k6_scenario']
    per_rep = collections.defaultdict(list)
    for q in m.reqs:
        per_rep[q.rep].append(q)
    drops = collections.defaultdict(list)
    for rep, t in m.drops:
        drops[rep].append(t)
    texts, facts = {}, {}
    t0us = int(round(m.cfg['t0'] * 1_000_000))

    def us(t):
        return t0us + int(round(t * 1_000_000))

    for rep in sorted(per_rep):
        qs = sorted(per_rep[rep], key=lambda q: q.proc)
        rs, rd = c['reps'][rep - 1]
        declared = set()
        lines = []

        def metric(name):
            if name not in declared:
                declared.add(name)
                typ, contains, th = METRIC_DEFS[name]
                lines.append('{"type":"Metric","data":{"name":"%s","type":"%s","contains":"%s","thresholds":%s,'
                             '"submetrics":null},"metric":"%s"}' % (name, typ, contains, json.dumps(th), name))

        def point(name, t_us, value, tags, ns=None):
            metric(name)
            lines.append('{"metric":"%s","type":"Point","data":{"time":"%s","value":%s,"tags":%s}}' % (
                name, k6_time(t_us, rng.randint(0, 999) if ns is None else ns, off), value, tags))

        events = [(q.proc, 0, q) for q in qs] + [(t, 1, None) for t in drops.get(rep, [])]
        end_t = max(q.proc for q in qs) + 0.001
        for s in range(int(math.floor(rs)), int(math.ceil(end_t)) + 1):
            events.append((s + 0.9995, 2, None))
        events.sort(key=lambda x: (x[0], x[1]))
        ok = 0
        inflight_vus = c['prealloc_vus']
        vu_times = sorted(t for r_, t in m.vu_inits if r_ == rep)
        durs = []
        for t, kind, q in events:
            if kind == 0:
                dur_ms = (q.proc - q.send) * 1000.0
                sending = min(dur_ms * 0.3, ln(rng, c['sending_ms'], 0.3))
                receiving = min(dur_ms * 0.2, ln(rng, 0.045, 0.3))
                waiting = max(0.0, dur_ms - sending - receiving)
                tu = us(t)
                ns, ns2 = rng.randint(0, 999), rng.randint(0, 999)
                point('http_reqs', tu, '1', http_tags, ns)
                point('http_req_duration', tu, fnum(dur_ms), http_tags, ns)
                point('http_req_blocked', tu, fnum(ln(rng, 0.0031, 0.3)), http_tags, ns)
                point('http_req_connecting', tu, '0', http_tags, ns)
                point('http_req_tls_handshaking', tu, '0', http_tags, ns)
                point('http_req_sending', tu, fnum(sending), http_tags, ns)
                point('http_req_waiting', tu, fnum(waiting), http_tags, ns)
                point('http_req_receiving', tu, fnum(receiving), http_tags, ns)
                point('http_req_failed', tu, '0', http_tags, ns)
                tu2 = tu + 60
                point('data_sent', tu2, str(c['body_bytes'] + 212 + rng.randint(-40, 40)), it_tags, ns2)
                point('data_received', tu2, str(286 + rng.randint(0, 3)), it_tags, ns2)
                point('iteration_duration', tu2, fnum(dur_ms + ln(rng, 0.16, 0.3)), it_tags, ns2)
                point('iterations', tu2, '1', it_tags, ns2)
                ok += 1
                durs.append((t, dur_ms))
            elif kind == 1:
                point('dropped_iterations', us(t), '1', '{"scenario":"%s"}' % c['k6_scenario'])
            else:
                vus_alloc = c['prealloc_vus'] + bisect.bisect_right(vu_times, t)
                point('vus', us(t), str(vus_alloc), '{}')
                point('vus_max', us(t), str(vus_alloc), '{}')
        texts[rep] = '\n'.join(lines) + '\n'
        first = min(q.send for q in qs)
        facts[rep] = dict(ok=ok, first=first, last=end_t, drops=len(drops.get(rep, [])), durs=durs)
    return texts, facts


# ----------------------------------------------------------------------------------------------- truth


def slow_seconds(durs, t0):
    """Seconds (by end) where the worst request > 150 ms and > 10 % of requests > 50 ms, from the k6 data."""
    by = collections.defaultdict(list)
    for t, d in durs:
        by[int(math.floor(t))].append(d)
    out = []
    for s in sorted(by):
        ds = by[s]
        if max(ds) > 150 and sum(1 for d in ds if d > 50) > 0.1 * len(ds):
            out.append(s)
    return out


def quantile(xs, q):
    xs = sorted(xs)
    if not xs:
        return float('nan')
    k = min(len(xs) - 1, max(0, int(math.ceil(q * len(xs))) - 1))
    return xs[k]


# ----------------------------------------------------------------------------------------------- directories


def base_cfg(name, seed, start, **kw):
    t0 = dt.datetime.fromisoformat(start.replace('Z', '+00:00')).timestamp()
    c = dict(name=name, seed=seed, t0=t0, rate=150, pool=20, prealloc_vus=30, max_vus=200, tenants=400, zipf=0.6,
             net_ms=0.14, app_in_ms=0.3, app_out_ms=0.22, stmt_ms=0.85, upd_ms=0.22, flush_ms=0.8,
             wal_per_req=2100, body_bytes=1460, sending_ms=0.03, url='http://10.0.1.20:8080/v1/events',
             k6_scenario='ingest', db='ingest', table='usage_events', disk=dict(kind='gp3', iops=3000, mbps=125),
             instance_id='ingest-pg-1', resource_id='db-K3QX7WZ2M5VHN4R6TYJPLD2ABC', uptime_days=23,
             streams=dict(), events=[], checkpoints=[], hosts={}, physical_device=False, gen_hosts=None,
             log_lock_waits=False)
    c.update(kw)
    last = max(s + d for s, d in c['reps'])
    c['span'] = (c['reps'][0][0] - 60, last + 45)
    c['log_span'] = (c['reps'][0][0] - 330, last + 45)
    for e in c['events']:
        e.setdefault('dur', 0.0)
    return c


LOAD_HOST = dict(role='load', free=2_912_000, buff=61_220, cache=688_400)
APP_HOST = dict(role='app', free=5_204_000, buff=84_112, cache=1_902_300)


def configs():
    cs = []
    # d01: vacuum rewrite storms after timed checkpoints, every stream
    cs.append(base_cfg(
        'd01-vacuum-full', 101, '2024-03-05T10:02:00Z', reps=[(0, 120), (300, 120)], physical_device=True,
        streams=dict(k6='gz', vmstat=['load-1', 'app-1'], em='jsonl', pi='jsonl', log=True, cw=True),
        hosts={'load-1': LOAD_HOST, 'app-1': APP_HOST}, gen_hosts='load-1',
        checkpoints=[dict(start=-262.0), dict(start=38.4), dict(start=338.4)],
        events=[dict(kind='storm', start=61.3, dur=5.6, pages=9180, pages_total=71460, fpi_share=0.89, await_ms=45),
                dict(kind='storm', start=364.8, dur=6.3, pages=9420, pages_total=80880, fpi_share=0.91, await_ms=52)]))
    # d02: WAL segment pool refill after a quiet spell, DB sampler JSONL included
    cs.append(base_cfg(
        'd02-walrefill-sampler', 202, '2024-04-11T14:20:00Z', reps=[(0, 90)], rate=190, wal_per_req=47_000,
        stmt_ms=1.5, body_bytes=45_900, sending_ms=0.21, url='http://10.0.1.20:8080/v1/documents', table='documents',
        future_segments=2, wal_files=5, wal_offset=0.55,
        streams=dict(k6='plain', vmstat=['load-1'], em='jsonl', pi='array', log=True, cw=True, sampler=True),
        hosts={'load-1': LOAD_HOST}, gen_hosts='load-1',
        checkpoints=[dict(start=-230.0, end=-210.5, write=19.4, sync=0.011, buffers=196, removed=7, recycled=0,
                          files=9, longest=0.004, distance=1290, estimate=38765),
                     dict(start=69.6, distance=2_700_000, estimate=2_800_000)],
        events=[dict(kind='walpool', start=0, dur=90)]))
    # d03: storage saturation at checkpoint sync on a gp2 volume with no burst credits; trap in rep 2
    cs.append(base_cfg(
        'd03-storage-gp2', 303, '2024-05-20T08:30:00Z', reps=[(0, 90), (300, 90)], rate=120, flush_ms=1.0,
        disk=dict(kind='gp2', iops=300, mbps=250), resource_id='db-P8WD2LKQ4X7M3ZR9HBNTC6YAEF', instance_id='ingest-pg-2',
        streams=dict(k6='gz', vmstat=['load-1'], em='get-log-events', pi='jsonl', log=True, cw=True),
        hosts={'load-1': LOAD_HOST}, gen_hosts='load-1', max_vus=300,
        checkpoints=[dict(start=-220.6, end=58.4, sync=8.812, longest=7.951, files=63, buffers=23_871, recycled=3),
                     dict(start=80.0, end=358.9, sync=8.402, longest=7.624, files=61, buffers=24_410, recycled=2)],
        events=[dict(kind='sat', start=49.6, dur=8.8, await_ms=150),
                dict(kind='sat', start=350.5, dur=8.4, await_ms=160),
                dict(kind='vac_benign', end=355.9, elapsed=14.22, pages=2210, pages_total=58_300, fpi=184)]))
    # d04: lock contention (per-minute rollup holding every tenant_counters row), no Enhanced Monitoring
    cs.append(base_cfg(
        'd04-lock-noEM', 404, '2024-06-03T16:45:00Z', reps=[(0, 120)], rate=100, k6_offset_min=60, max_vus=400,
        prealloc_vus=20, log_lock_waits=True, resource_id='db-Z5HQ1NC8V2JR7MKT3WLXB9DPGS', instance_id='ingest-pg-3',
        streams=dict(k6='gz', vmstat=['app'], pi='jsonl', log=True, cw=True),
        hosts={'app': dict(APP_HOST, runs_k6=True)}, gen_hosts='app',
        checkpoints=[dict(start=-120.0)],
        events=[dict(kind='lock', start=35.2, dur=3.2), dict(kind='lock', start=95.1, dur=2.6)]))
    # d05: generator stall: the k6 host (t3.large, no CPU credits) throttled: steal
    cs.append(base_cfg(
        'd05-genstall-steal', 505, '2024-07-09T11:10:00Z', reps=[(0, 90)], rate=200, max_vus=150, prealloc_vus=50,
        resource_id='db-C4MV8PL2QW6ZK1XR5JTNB3HYDU', instance_id='ingest-pg-4',
        streams=dict(k6='gz', vmstat=['load-1'], em='jsonl', pi='jsonl', log=True, cw=True),
        hosts={'load-1': dict(LOAD_HOST, cpu_per_req=1.3)}, gen_hosts='load-1',
        checkpoints=[dict(start=-30.0)],
        events=[dict(kind='genstall', start=41.2, dur=4.1, avail=0.22, mode='steal', host='load-1', vmstat_late=True)]))
    # d06: clean: nothing planted (routine checkpoints, counter-table vacuums, a harmless vacuum of the written table)
    cs.append(base_cfg(
        'd06-clean', 606, '2024-08-14T09:00:00Z', reps=[(0, 90), (150, 90)],
        streams=dict(k6='gz', vmstat=['load-1', 'app-1'], em='jsonl', pi='jsonl', log=True, cw=True),
        hosts={'load-1': LOAD_HOST, 'app-1': APP_HOST}, gen_hosts='load-1', resource_id='db-R7TN2KX5WQ8MV3LZ6HPCB1JDYF',
        checkpoints=[dict(start=-150.0)],
        events=[dict(kind='vac_benign', end=208.2, elapsed=1.84, pages=3120, pages_total=66_020, fpi=37)]))
    # d07: two causes: lock contention early, a vacuum rewrite storm later; log spans two hourly files
    cs.append(base_cfg(
        'd07-two-causes', 707, '2024-09-02T10:58:30Z', reps=[(0, 120)],
        streams=dict(k6='gz', vmstat=['load-1'], em='jsonl', pi='jsonl', log=True, cw=True),
        hosts={'load-1': LOAD_HOST}, gen_hosts='load-1', max_vus=400, resource_id='db-M2XK9QW4LT7HZ1NV5RJCB8PDYE',
        checkpoints=[dict(start=-240.0), dict(start=56.1)],
        events=[dict(kind='lock', start=22.4, dur=3.1),
                dict(kind='storm', start=80.2, dur=5.9, pages=9010, pages_total=74_200, fpi_share=0.9, await_ms=48)]))
    # d08: vacuum storm without Performance Insights (the CloudWatch DiskQueueDepth minute is high: a trap)
    cs.append(base_cfg(
        'd08-vacuum-noPI', 808, '2024-10-21T13:40:00Z', reps=[(0, 90)],
        streams=dict(k6='gz', vmstat=['load-1'], em='jsonl', log=True, cw=True),
        hosts={'load-1': LOAD_HOST}, gen_hosts='load-1', resource_id='db-H6PL3TX9KQ2ZW8MN4VRJCB7DYA',
        checkpoints=[dict(start=21.7)],
        events=[dict(kind='storm', start=49.6, dur=7.4, pages=12_060, pages_total=90_400, fpi_share=0.92,
                     await_ms=58)]))
    # d09: trap: generator stall (co-located CPU hog on the k6 host) while a report query keeps the DB busy
    cs.append(base_cfg(
        'd09-trap-genstall-busy', 909, '2024-11-05T15:25:00Z', reps=[(0, 90)], rate=180, max_vus=150,
        prealloc_vus=40, resource_id='db-T9KQ4XW2ZL8MV1NR6HJPCB3DYE', instance_id='ingest-pg-5',
        streams=dict(k6='gz', vmstat=['load-1', 'app-1'], em='jsonl', pi='jsonl', log=True, cw=True),
        hosts={'load-1': dict(LOAD_HOST, cpu_per_req=1.2), 'app-1': APP_HOST}, gen_hosts='load-1',
        checkpoints=[dict(start=-80.0)],
        events=[dict(kind='report', start=31.0, dur=32.5),
                dict(kind='genstall', start=44.3, dur=3.6, avail=0.15, mode='cpu', host='load-1')]))
    # d10: only k6 + Postgres log + CloudWatch; a vacuum storm
    cs.append(base_cfg(
        'd10-minimal-vacuum', 1010, '2024-12-10T07:15:00Z', reps=[(0, 120)],
        streams=dict(k6='gz', log=True, cw=True), resource_id='db-W1ZN7QK4XT2MV9LR5HJPCB6DYA',
        checkpoints=[dict(start=47.9)],
        events=[dict(kind='storm', start=71.4, dur=6.1, pages=9640, pages_total=77_800, fpi_share=0.9, await_ms=50)]))
    # d11: WAL segment pool refill, no DB sampler and no vmstat (the usual RDS evidence)
    cs.append(base_cfg(
        'd11-walrefill-noSampler', 1111, '2025-01-14T12:00:00Z', reps=[(0, 75)], rate=170, wal_per_req=50_000,
        stmt_ms=1.5, body_bytes=48_700, sending_ms=0.22, url='http://10.0.1.20:8080/v1/documents', table='documents',
        future_segments=1, wal_files=4, wal_offset=0.2, resource_id='db-B3NV6QK9XW1ZL4MT7HRJPC2DYE',
        streams=dict(k6='gz', em='jsonl', pi='jsonl', log=True, cw=True),
        checkpoints=[dict(start=-200.0, end=-183.1, write=16.9, sync=0.009, buffers=141, removed=6, recycled=0,
                          files=7, longest=0.003, distance=940, estimate=31022),
                     dict(start=100.0)],
        events=[dict(kind='walpool', start=0, dur=75)]))
    # d12: storage saturation (gp2, no credits) without Enhanced Monitoring and Performance Insights
    cs.append(base_cfg(
        'd12-storage-noEM-noPI', 1212, '2025-02-18T18:05:00Z', reps=[(0, 90)], rate=120, flush_ms=1.0,
        disk=dict(kind='gp2', iops=300, mbps=250), max_vus=300, resource_id='db-Q2LK8XW5ZT3MV6NR1HJPCB9DYA',
        streams=dict(k6='gz', vmstat=['load-1'], log=True, cw=True),
        hosts={'load-1': LOAD_HOST}, gen_hosts='load-1',
        checkpoints=[dict(start=-216.3, end=63.1, sync=9.104, longest=8.212, files=58, buffers=22_960, recycled=3)],
        events=[dict(kind='sat', start=54.0, dur=9.1, await_ms=155)]))
    return cs


CAUSE = {'storm': 'vacuum_storm', 'walinit': 'wal_pool', 'sat': 'storage', 'lock': 'lock_contention',
         'genstall': 'generator'}


def build(c):
    d = os.path.join(OUT, c['name'])
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    m = Model(c)
    for e in c['events']:
        if e['kind'] == 'storm':
            m.bg_sessions.append((e['start'], e['start'] + e['dur'], 'vacuum_storm'))
        elif e['kind'] == 'report':
            # leader + 2 parallel workers (max_parallel_workers_per_gather 2)
            m.bg_sessions.append((e['start'], e['start'] + e['dur'], 'report'))
            m.bg_sessions.append((e['start'] + 0.05, e['start'] + e['dur'] - 0.4, 'report'))
            m.bg_sessions.append((e['start'] + 0.05, e['start'] + e['dur'] - 0.4, 'report'))
        elif e['kind'] == 'vac_benign':
            m.bg_sessions.append((e['end'] - e['elapsed'], e['end'], 'vacuum_slow'))
    m.run()
    v = Views(m)
    st = c['streams']
    t0 = c['t0']
    files = {}
    # k6
    texts, facts = k6_files(m, random.Random(c['seed'] * 3 + 1))
    for rep, text in texts.items():
        day = dt.datetime.fromtimestamp(t0, dt.timezone.utc).strftime('%Y%m%d')
        if st['k6'] == 'gz':
            fn = 'k6-%s-rep%d.json.gz' % (day, rep)
            write_gz(os.path.join(d, fn), text)
        else:
            fn = 'k6-%s-rep%d.json' % (day, rep)
            with open(os.path.join(d, fn), 'w') as f:
                f.write(text)
        files[fn] = 'k6 --out json (repeat %d)' % rep
    dev = device_view(m, v)
    # Enhanced Monitoring
    if st.get('em'):
        rng = random.Random(c['seed'] * 19 + 2)
        docs = []
        for s in range(v.lo, v.hi):
            if rng.random() < 0.004:
                continue   # EM drops a document now and then
            docs.append(em_document(m, s, dev[s], rng))
        if st['em'] == 'jsonl':
            fn = 'rds-os-metrics-%s.jsonl' % c['instance_id']
            with open(os.path.join(d, fn), 'w') as f:
                for doc in docs:
                    f.write(json.dumps(doc, separators=(',', ':')) + '\n')
        else:   # aws logs get-log-events pages, appended
            fn = 'RDSOSMetrics-%s.json' % c['resource_id']
            with open(os.path.join(d, fn), 'w') as f:
                for k in range(0, len(docs), 300):
                    page = docs[k:k + 300]
                    evs = [{'timestamp': int(dt.datetime.fromisoformat(p['timestamp'].replace('Z', '+00:00'))
                                             .timestamp() * 1000),
                            'message': json.dumps(p, separators=(',', ':')),
                            'ingestionTime': int(dt.datetime.fromisoformat(p['timestamp'].replace('Z', '+00:00'))
                                                 .timestamp() * 1000) + 2310 + k % 400} for p in page]
                    f.write(json.dumps({'events': evs, 'nextForwardToken': 'f/3784%020d/s' % k,
                                        'nextBackwardToken': 'b/3784%020d/s' % k}, indent=4) + '\n')
        files[fn] = 'Enhanced Monitoring, 1 s (diskIO rdsdev)'
    # Performance Insights
    pi_counts = None
    if st.get('pi'):
        pi_counts = pi_samples(m, offset=c.get('pi_offset', 0.43))
        resp = pi_responses(m, pi_counts, c['resource_id'])
        if st['pi'] == 'jsonl':
            fn = 'pi-db-load-by-wait-event.jsonl'
            with open(os.path.join(d, fn), 'w') as f:
                for r_ in resp:
                    f.write(json.dumps(r_, separators=(',', ':')) + '\n')
        else:
            fn = 'pi-get-resource-metrics.json'
            with open(os.path.join(d, fn), 'w') as f:
                f.write(json.dumps(resp, indent=4) + '\n')
        files[fn] = 'Performance Insights db.load.avg by db.wait_event, 1 s'
    # vmstat
    for host in st.get('vmstat', []):
        fn = '%s-vmstat.log' % host
        with open(os.path.join(d, fn), 'w') as f:
            f.write(vmstat_text(m, v, host, random.Random(c['seed'] * 23 + len(host))))
        files[fn] = 'vmstat -n -t 1 of %s' % host
    # Postgres log
    if st.get('log'):
        for fn, ls in pg_log(m, v).items():
            with open(os.path.join(d, fn), 'w') as f:
                f.write('\n'.join(ls) + '\n')
            files[fn] = 'PostgreSQL log (RDS prefix)'
    # CloudWatch
    if st.get('cw'):
        fn = 'cloudwatch-get-metric-data.json'
        with open(os.path.join(d, fn), 'w') as f:
            f.write(json.dumps(cloudwatch(m, dev), indent=4) + '\n')
        files[fn] = 'CloudWatch GetMetricData, 60 s'
    # DB sampler
    if st.get('sampler'):
        fn = 'db-sampler.jsonl'
        with open(os.path.join(d, fn), 'w') as f:
            for rec in db_sampler(m, v):
                f.write(json.dumps(rec, separators=(',', ':')) + '\n')
        files[fn] = 'rigscope DB sampler JSONL (rig.db)'
    # manifest
    reps = []
    for i, (rs, rd) in enumerate(c['reps'], start=1):
        fa = facts[i]
        start = math.floor(t0 + rs)
        end = math.ceil(t0 + fa['last']) + 1
        reps.append(collections.OrderedDict([
            ('rep', i), ('start', iso_utc(start)), ('end', iso_utc(end)), ('kind', 'sustained'),
            ('offered_rate_per_s', c['rate']), ('batch', 1), ('scenarios', [c['k6_scenario']]),
            ('database_gained', {'rows_written': fa['ok'], 'qty_sum_gained': 0})]))
    man = collections.OrderedDict([
        ('series', c['name']),
        ('reconciliation_required', True),
        ('thresholds', {'http_req_duration': ['p(99)<500'], 'http_req_failed': ['rate<0.01']}),
        ('pglog_prefix', '%t:%r:%u@%d:[%p]:'),
        ('repeats', reps),
        ('environment', collections.OrderedDict([
            ('platform', 'Amazon RDS for PostgreSQL'), ('instance', 'db.r6g.large'),
            ('storage', ('gp2, 100 GiB (300 IOPS baseline, burst balance exhausted)' if c['disk']['kind'] == 'gp2'
                         else 'gp3, 200 GiB, 3000 IOPS, 125 MiB/s')),
            ('postgres', '16.3'),
            ('settings', {'checkpoint_timeout': '300s', 'max_wal_size': '2GB', 'min_wal_size': '192MB',
                          'wal_segment_size': '64MB', 'log_autovacuum_min_duration': '0', 'log_checkpoints': 'on',
                          'autovacuum_naptime': '15s', 'log_lock_waits': 'on' if c['log_lock_waits'] else 'off',
                          'track_io_timing': 'on'}),
            ('load_generator', 'k6 v0.49.0, constant-arrival-rate %d/s, maxVUs %d' % (c['rate'], c['max_vus'])),
            ('region', 'eu-west-1')]))])
    if c.get('gen_hosts'):
        man['analyzer'] = {'attribution_generator_hosts': c['gen_hosts']}
    with open(os.path.join(d, 'manifest.json'), 'w') as f:
        f.write(json.dumps(man, indent=2) + '\n')
    # truth
    truth = dict(name=c['name'], t0=iso_utc(t0), streams=sorted(files.items()), episodes=[], reps=[])
    all_durs = []
    for i in sorted(facts):
        fa = facts[i]
        ds = [x for _, x in fa['durs']]
        all_durs.extend(fa['durs'])
        truth['reps'].append(dict(rep=i, requests_ok=fa['ok'], drops=fa['drops'], p50=quantile(ds, 0.5),
                                  p99=quantile(ds, 0.99), max=max(ds), start=reps[i - 1]['start'],
                                  end=reps[i - 1]['end']))
    slow = slow_seconds(all_durs, t0)
    planted = []
    for e in c['events']:
        if e['kind'] in ('storm', 'sat', 'lock', 'genstall'):
            planted.append(dict(cause=CAUSE[e['kind']], start=e['start'], end=e['start'] + e['dur'], event=e))
    for a, b, by_backend in m.wal_inits:
        planted.append(dict(cause='wal_pool', start=a, end=b, event=dict(by_backend=by_backend)))
    planted.sort(key=lambda p: p['start'])
    for p in planted:
        ss = [s for s in slow if p['start'] - 1 <= s <= p['end'] + 3]
        ep = dict(cause=p['cause'], mech_start=iso_utc(t0 + p['start'], 3), mech_end=iso_utc(t0 + p['end'], 3),
                  rel_start=round(p['start'], 3), rel_end=round(p['end'], 3),
                  slow_seconds=[iso_utc(t0 + s) for s in ss], rep=next(
                      (i for i, (rs, rd) in enumerate(c['reps'], 1) if rs <= p['start'] < rs + rd + 5), None))
        e = p['event']
        if p['cause'] == 'vacuum_storm':
            ep['note'] = ('autovacuum of %s.public.%s: %d pages, %d FPIs, %.1f MB WAL over %.1f s; EBS at the 3000 IOPS '
                          'ceiling with ~7 KB requests, queue %d-%d' % (
                              c['db'], c['table'], e['pages'], e['log']['wal_fpi'], e['log']['wal_bytes'] / 1e6,
                              e['dur'], int(e['await_ms'] * 3 * 0.7), int(e['await_ms'] * 3 * 1.3)))
        elif p['cause'] == 'wal_pool':
            ep['note'] = ('64 MB segment created by %s holding WALWriteLock for %.0f ms' % (
                'a committing backend (IO:WALInitWrite/Sync)' if e['by_backend'] else
                'the walwriter (no backend wait event of its own)', (p['end'] - p['start']) * 1000))
        elif p['cause'] == 'storage':
            ep['note'] = 'checkpoint sync phase on gp2 with no burst credits: write IOPS pinned at 300, queue 35-70'
        elif p['cause'] == 'lock_contention':
            ep['note'] = 'rollup transaction holds every tenant_counters row for %.1f s' % e['dur']
        elif p['cause'] == 'generator':
            ep['note'] = ('k6 host %s: %s' % (e['host'], 'CPU throttled (t3 without credits): steal 62-76 %'
                                              if e['mode'] == 'steal' else 'co-located process: CPU 100 % busy'))
        truth['episodes'].append(ep)
    truth['slow_seconds_all'] = [iso_utc(t0 + s) for s in slow]
    truth['traps'] = c.get('traps', [])
    return truth


TRAPS = {
    'd01-vacuum-full': ['every storm also pins the volume at its IOPS ceiling with a queue in the hundreds '
                        '(storage-saturation symptoms); the mechanism is the vacuum'],
    'd03-storage-gp2': ['rep 2: an autovacuum of the written table (usage_events, 184 FPIs, 1.5 MB WAL, 14.2 s) '
                        'completes inside the saturation episode; it is harmless, the cause is the volume'],
    'd06-clean': ['an autovacuum of the written table (37 FPIs) and routine checkpoints/vacuums, no episode'],
    'd07-two-causes': ['the lock episode and the storm are 55 s apart; a checkpoint starts between them'],
    'd08-vacuum-noPI': ['the CloudWatch DiskQueueDepth minute holding the storm is ~20x its neighbours; the '
                        'mechanism is the vacuum, not generic storage saturation'],
    'd09-trap-genstall-busy': ['a report query keeps the DB busy (PI CPU + IO:DataFileRead, EM read IOPS, CPU '
                               '~50 %) from 31 s to 63.5 s, and the routine tenant_counters autovacuum runs; the '
                               'latency is the generator host starving'],
}


def truth_md(truths):
    out = ['# Held-out RDS-shaped evidence: ground truth', '',
           'Generated by `make.py` (seeded, deterministic). Times UTC. "mechanism" is when the planted physical cause '
           'acted; "slow seconds" are the seconds (by request end) that k6 itself recorded as freeze-seconds '
           '(worst > 150 ms and > 10 % over 50 ms) within [mechanism start - 1 s, end + 3 s]. Every directory has a '
           '`manifest.json` (repeats, database_gained = the 2xx requests in the repeat, so it reconciles).', '']
    for t in truths:
        out.append('## %s' % t['name'])
        out.append('')
        out.append('Streams present:')
        for fn, what in t['streams']:
            out.append('- `%s`: %s' % (fn, what))
        out.append('')
        out.append('| rep | window | 2xx requests | dropped | p50 ms | p99 ms | max ms |')
        out.append('|---|---|---|---|---|---|---|')
        for r in t['reps']:
            out.append('| %d | %s .. %s | %d | %d | %.2f | %.2f | %.1f |' % (
                r['rep'], r['start'], r['end'], r['requests_ok'], r['drops'], r['p50'], r['p99'], r['max']))
        out.append('')
        if not t['episodes']:
            out.append('Planted episodes: **none** (clean).')
        else:
            out.append('| # | rep | true cause | mechanism (UTC) | rel. s | slow seconds | what |')
            out.append('|---|---|---|---|---|---|---|')
            for k, e in enumerate(t['episodes'], 1):
                ss = e['slow_seconds']
                sss = ('%s..%s (%d)' % (ss[0][11:19], ss[-1][11:19], len(ss))) if ss else 'none'
                out.append('| %d | %s | %s | %s .. %s | %.1f-%.1f | %s | %s |' % (
                    k, e['rep'], e['cause'], e['mech_start'][11:23], e['mech_end'][11:23], e['rel_start'],
                    e['rel_end'], sss, e.get('note', '')))
        if t['traps']:
            out.append('')
            for tr in t['traps']:
                out.append('Trap: %s.' % tr)
        out.append('')
    return '\n'.join(out)


def main(argv):
    only = set(argv[1:])
    truths = []
    for c in configs():
        c['traps'] = TRAPS.get(c['name'], [])
        if only and c['name'] not in only:
            continue
        t = build(c)
        truths.append(t)
        print('%s: %s' % (c['name'], ', '.join('rep %d %d ok/%d dropped p50 %.2f p99 %.1f max %.0f' % (
            r['rep'], r['requests_ok'], r['drops'], r['p50'], r['p99'], r['max']) for r in t['reps'])),
              '| episodes:', len(t['episodes']), file=sys.stderr)
    if not only:
        with open(os.path.join(OUT, 'truth.json'), 'w') as f:
            json.dump(truths, f, indent=1, default=str)
        with open(os.path.join(OUT, 'TRUTH.md'), 'w') as f:
            f.write(truth_md(truths) + '\n')


if __name__ == '__main__':
    main(sys.argv)
