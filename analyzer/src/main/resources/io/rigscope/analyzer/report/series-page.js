/*
 * rigscope series page: the one view of a series, shared by the HTML report (wire lines inlined) and the
 * dashboard (wire lines streamed as server-sent events). It draws what the analyzer decided and what the
 * telemetry records say; it computes no figure of its own (no histogram, no percentile, no rate).
 *
 * Input: wire lines {"topic": "rig.verdicts" | "rig.vmstat" | "rig.waits" | "rig.canary", "key": series,
 * "value": record}, as docs/wire-format.md shows them. Needs uPlot (window.uPlot).
 *
 * For tests, the root element carries what is drawn: data-latency-points (points on the latency chart),
 * data-freeze-marked (freeze-seconds marked), data-episodes-marked (episode bands drawn), data-verdict.
 */
(function () {
  'use strict';

  var SYNC_KEY = 'rigscope-x';

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    }
    if (text !== undefined && text !== null) {
      e.textContent = String(text);
    }
    return e;
  }

  function fmt(v) {
    if (v === null || v === undefined) { return '-'; }
    if (typeof v === 'object') { return JSON.stringify(v); }
    return String(v);
  }

  function hms(sec) {
    return new Date(sec * 1000).toISOString().substring(11, 19);
  }

  function positive(v) {
    return typeof v === 'number' && v > 0 ? v : null;
  }

  function SeriesPage(root, options) {
    this.root = root;
    this.live = !!(options && options.live);
    this.seconds = {};        // scenario -> sec -> SECOND body
    this.freezes = {};        // scenario -> sec -> FREEZE body
    this.windows = [];        // {rep, scenario, body}
    this.windowsByKey = {};
    this.episodes = {};       // rep:start -> {rep, body, provisional}
    this.repeats = {};        // rep -> REPEAT body
    this.ceiling = null;
    this.report = null;       // SERIES body
    this.telemetry = {canary: {}, vmstat: {}, waits: {}};
    this.scenarioOfRepeat = null;
    this.charts = [];
    this.chartsByName = {};
    this.boxes = {};
    this.dirty = false;
    this.build();
  }

  SeriesPage.prototype.build = function () {
    var r = this.root;
    r.innerHTML = '';
    this.head = r.appendChild(el('header', {'class': 'rs-head'}));
    this.latencyBox = r.appendChild(el('section', {'class': 'rs-panel', id: 'rs-latency'}));
    this.rateBox = r.appendChild(el('section', {'class': 'rs-panel', id: 'rs-rates'}));
    this.telemetryBox = r.appendChild(el('section', {'class': 'rs-telemetry'}));
    this.episodeBox = r.appendChild(el('section', {'class': 'rs-episodes', id: 'rs-episodes'}));
    this.gateBox = r.appendChild(el('section', {'class': 'rs-gates', id: 'rs-gates'}));
    this.envBox = r.appendChild(el('section', {'class': 'rs-env', id: 'rs-env'}));
    r.dataset.latencyPoints = '0';
    r.dataset.freezeMarked = '0';
    r.dataset.episodesMarked = '0';
  };

  /** Takes one wire line; call render() (or schedule()) after a batch. */
  SeriesPage.prototype.accept = function (line) {
    var v = line.value;
    if (!v) { return; }
    if (line.topic === 'rig.verdicts') {
      this.acceptVerdict(v);
    } else if (line.topic === 'rig.canary') {
      var c = this.telemetry.canary[Math.floor(v.ts / 1e6)] || {};
      c.fsyncMaxMs = Math.max(c.fsyncMaxMs || 0, v.fsyncMaxUs / 1000);
      this.telemetry.canary[Math.floor(v.ts / 1e6)] = c;
    } else if (line.topic === 'rig.vmstat') {
      this.telemetry.vmstat[Math.floor(v.ts / 1e6)] = v;
    } else if (line.topic === 'rig.waits') {
      this.telemetry.waits[Math.floor(v.ts / 1e6)] = v.load || {};
    }
    this.dirty = true;
  };

  SeriesPage.prototype.acceptVerdict = function (v) {
    var b = v.body || {};
    var sc = v.scenario;
    switch (v.kind) {
      case 'SECOND': {
        var byScenario = this.seconds[sc] || (this.seconds[sc] = {});
        var old = byScenario[b.sec];
        if (!old || old.provisional || !b.provisional) {
          byScenario[b.sec] = b;
        }
        break;
      }
      case 'FREEZE':
        (this.freezes[sc] || (this.freezes[sc] = {}))[b.sec] = b;
        break;
      case 'WINDOW':
        // keyed: a series judged again has its decisions on the topic twice
        this.windowsByKey[v.rep + ':' + sc + ':' + b.start] = {rep: v.rep, scenario: sc, body: b};
        this.windows = Object.keys(this.windowsByKey).map(function (k) { return this.windowsByKey[k]; }, this);
        break;
      case 'EPISODE': {
        var self = this;
        if (!b.provisional) {
          Object.keys(this.episodes).forEach(function (k) {
            var e = self.episodes[k];
            if (e.provisional && e.rep === v.rep) { delete self.episodes[k]; }
          });
        } else if (Object.keys(this.episodes).some(function (k) {
          var e = self.episodes[k];
          return !e.provisional && e.rep === v.rep && e.body.start <= b.start && b.start <= e.body.end;
        })) {
          break;
        }
        this.episodes[v.rep + ':' + b.start] = {rep: v.rep, body: b, provisional: !!b.provisional};
        break;
      }
      case 'REPEAT':
        this.repeats[v.rep] = b;
        if (!this.scenarioOfRepeat && b.scenario) { this.scenarioOfRepeat = b.scenario; }
        break;
      case 'CEILING':
        this.ceiling = b;
        break;
      case 'SERIES':
        this.report = b;
        break;
      default:
        break;
    }
  };

  /** The scenario the latency chart shows: the series' own, else the first judged repeat's, else the busiest. */
  SeriesPage.prototype.primaryScenario = function () {
    if (this.report && this.report.scenario) { return this.report.scenario; }
    if (this.scenarioOfRepeat) { return this.scenarioOfRepeat; }
    var best = null;
    var most = -1;
    var seconds = this.seconds;
    Object.keys(seconds).forEach(function (sc) {
      var n = Object.keys(seconds[sc]).reduce(function (a, s) { return a + (seconds[sc][s].count || 0); }, 0);
      if (n > most) { most = n; best = sc; }
    });
    return best;
  };

  /** Re-renders at most every 250 ms (the dashboard's stream). */
  SeriesPage.prototype.schedule = function () {
    var self = this;
    if (this.timer) { return; }
    this.timer = setTimeout(function () { self.timer = null; if (self.dirty) { self.render(); } }, 250);
  };

  SeriesPage.prototype.render = function () {
    this.dirty = false;
    var sc = this.primaryScenario();
    this.renderHead(sc);
    var secs = sc && this.seconds[sc] ? Object.keys(this.seconds[sc]).map(Number).sort(function (a, b) { return a - b; }) : [];
    this.renderLatency(sc, secs);
    this.renderRates(sc, secs);
    this.renderTelemetry();
    this.renderEpisodes();
    this.renderGates();
    this.renderEnvironment();
  };

  SeriesPage.prototype.renderHead = function (sc) {
    var h = this.head;
    h.innerHTML = '';
    var rep = this.report;
    var verdict = rep ? rep.verdict : (this.live ? 'RUNNING' : 'NO VERDICT');
    this.root.dataset.verdict = verdict;
    var title = h.appendChild(el('h1'));
    title.appendChild(el('span', {'class': 'rs-verdict rs-' + verdict.toLowerCase()},
      verdict + (rep ? ' ' + rep.passed + '/' + rep.total : '')));
    title.appendChild(el('span', {'class': 'rs-series'}, ' series ' + (rep ? rep.series : (this.seriesId || ''))));
    if (rep) {
      h.appendChild(el('p', {'class': 'rs-headline'}, rep.headline));
      h.appendChild(el('p', null, 'freeze-seconds by cause: ' + (Object.keys(rep.freeze_seconds_by_cause || {}).length
        ? Object.keys(rep.freeze_seconds_by_cause).map(function (c) { return c + ' ' + rep.freeze_seconds_by_cause[c]; }).join(', ')
        : 'none') + '; reconciliation: ' + rep.reconciliation));
    } else {
      var judged = Object.keys(this.repeats).map(Number);
      var passed = judged.filter(function (r) { return this.repeats[r].pass; }, this).length;
      h.appendChild(el('p', {'class': 'rs-headline'}, 'so far: ' + passed + '/' + judged.length
        + ' repeats judged passed (the series verdict comes at its end)'));
    }
    var c = this.ceiling || (rep && rep.ceiling);
    if (c) {
      h.appendChild(el('p', {'class': 'rs-ceiling'}, 'ceiling: ' + Math.round(c.events_per_s) + ' events/s, '
        + Math.round(c.requests_per_s) + ' req/s closed loop (a maximum, never a service level)'
        + (c.denominator_rows_per_s ? '; denominator: the database alone ' + Math.round(c.denominator_rows_per_s)
          + ' rows/s, ratio ' + c.ratio : '; no denominator')));
    }
    h.appendChild(el('p', {'class': 'rs-note'}, 'latency chart: scenario ' + (sc || '-')
      + ', service time per second (the analyzer\'s SECOND decisions), log scale; red lines: freeze-seconds; '
      + 'orange: 10-s tail windows; bands: episodes with cause and confidence' + (this.live
        ? '; dashed/grey: provisional (decided again when final)' : '')));
  };

  SeriesPage.prototype.syncedOpts = function (title, series, height, draw) {
    var self = this;
    var width = Math.max(480, (this.root.clientWidth || 960) - 24);
    return {
      title: title,
      width: width,
      height: height,
      cursor: {sync: {key: SYNC_KEY, setSeries: false}, drag: {x: true, y: false}},
      scales: {x: {time: true}},
      series: series,
      hooks: {
        draw: draw ? [draw] : [],
        setScale: [function (u, key) {
          if (key !== 'x' || self.syncing) { return; }
          self.syncing = true;
          var min = u.scales.x.min;
          var max = u.scales.x.max;
          self.charts.forEach(function (other) {
            if (other !== u) { other.setScale('x', {min: min, max: max}); }
          });
          self.syncing = false;
        }]
      }
    };
  };

  function upsertChart(page, name, box, opts, data) {
    page.chartsByName = page.chartsByName || {};
    var u = page.chartsByName[name];
    if (!u) {
      box.innerHTML = '';
      u = new window.uPlot(opts, data, box);
      page.chartsByName[name] = u;
      page.charts.push(u);
    } else {
      u.setData(data, true);
    }
    return u;
  }

  SeriesPage.prototype.renderLatency = function (sc, secs) {
    var self = this;
    var byS = (sc && this.seconds[sc]) || {};
    var xs = [];
    var p50 = [];
    var p99 = [];
    var max = [];
    var p99prov = [];
    var points = 0;
    secs.forEach(function (s, i) {
      var b = byS[s];
      if (i > 0 && s - secs[i - 1] > 1) {
        xs.push(s - 1); p50.push(null); p99.push(null); max.push(null); p99prov.push(null);
      }
      xs.push(s);
      var prov = !!b.provisional;
      p50.push(prov ? null : positive(b.p50_ms));
      p99.push(prov ? null : positive(b.p99_ms));
      max.push(prov ? null : positive(b.max_ms));
      p99prov.push(prov ? positive(b.p99_ms) : null);
      if (positive(b.p99_ms) !== null) { points++; }
    });
    if (xs.length === 0) {
      this.latencyBox.textContent = 'no seconds decided yet';
      return;
    }
    var opts = this.syncedOpts('service time per second (ms, log scale)', [
      {},
      {label: 'p50 ms', stroke: '#2b7bb9', width: 1.5, spanGaps: false},
      {label: 'p99 ms', stroke: '#d9480f', width: 2, spanGaps: false},
      {label: 'max ms', stroke: '#555', width: 1, dash: [4, 3], spanGaps: false},
      {label: 'p99 ms (provisional)', stroke: '#aaa', width: 2, dash: [2, 4], spanGaps: false}
    ], 320, function (u) { self.drawMarks(u, sc, true); });
    opts.scales.y = {distr: 3};
    opts.axes = [{}, {label: 'ms'}];
    upsertChart(this, 'latency', this.latencyBox, opts, [xs, p50, p99, max, p99prov]);
    this.root.dataset.latencyPoints = String(points);
  };

  /** Windows, episodes and freeze-seconds, drawn over a chart's plotting area. */
  SeriesPage.prototype.drawMarks = function (u, sc, labels) {
    var ctx = u.ctx;
    var top = u.bbox.top;
    var height = u.bbox.height;
    var self = this;
    function x(sec) { return Math.round(u.valToPos(sec, 'x', true)); }
    ctx.save();
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    this.windows.forEach(function (w) {
      if (w.scenario !== sc) { return; }
      var x0 = x(w.body.start);
      var x1 = x(w.body.end + 1);
      ctx.fillStyle = 'rgba(255, 165, 0, 0.16)';
      ctx.fillRect(x0, top, Math.max(2, x1 - x0), height);
    });
    var episodes = 0;
    Object.keys(this.episodes).forEach(function (k) {
      var e = self.episodes[k];
      var x0 = x(e.body.start);
      var x1 = x(e.body.end + 1);
      ctx.fillStyle = e.provisional ? 'rgba(120, 120, 120, 0.18)' : 'rgba(200, 0, 0, 0.14)';
      ctx.fillRect(x0, top, Math.max(3, x1 - x0), height);
      ctx.setLineDash(e.provisional ? [5, 4] : []);
      ctx.strokeStyle = e.provisional ? '#777' : '#b00';
      ctx.lineWidth = 1;
      ctx.strokeRect(x0, top, Math.max(3, x1 - x0), height);
      ctx.setLineDash([]);
      if (labels) {
        ctx.fillStyle = e.provisional ? '#555' : '#900';
        ctx.font = (e.provisional ? 'italic ' : 'bold ') + Math.round(12 * devicePixelRatio) + 'px sans-serif';
        ctx.fillText((e.provisional ? '~ ' : '') + e.body.cause + ' (' + e.body.confidence + ')'
          + (e.provisional ? ' provisional' : ''), x0 + 4, top + 4 * devicePixelRatio);
      }
      episodes++;
    });
    var freezes = 0;
    var fz = this.freezes[sc] || {};
    ctx.strokeStyle = '#e00';
    ctx.lineWidth = 2 * devicePixelRatio;
    Object.keys(fz).forEach(function (s) {
      var px = x(Number(s) + 0.5);
      ctx.beginPath();
      ctx.moveTo(px, top);
      ctx.lineTo(px, top + height);
      ctx.stroke();
      freezes++;
    });
    ctx.restore();
    if (labels) {
      this.root.dataset.freezeMarked = String(freezes);
      this.root.dataset.episodesMarked = String(episodes);
    }
  };

  SeriesPage.prototype.renderRates = function (sc, secs) {
    var self = this;
    var byS = (sc && this.seconds[sc]) || {};
    if (secs.length === 0) { return; }
    var xs = [];
    var offered = [];
    var delivered = [];
    var dropped = [];
    var inflight = [];
    secs.forEach(function (s, i) {
      var b = byS[s];
      if (i > 0 && s - secs[i - 1] > 1) {
        xs.push(s - 1); offered.push(null); delivered.push(null); dropped.push(null); inflight.push(null);
      }
      xs.push(s);
      offered.push(b.scheduled);
      delivered.push(b.count - b.failed);
      dropped.push(b.dropped);
      inflight.push(b.in_flight);
    });
    var opts = this.syncedOpts('requests per second: offered (scheduled), delivered (ended, not failed), dropped, in flight', [
      {},
      {label: 'offered', stroke: '#2b7bb9', width: 1.5},
      {label: 'delivered', stroke: '#2f9e44', width: 1.5},
      {label: 'dropped', stroke: '#e00', width: 1.5},
      {label: 'in flight', stroke: '#888', width: 1}
    ], 200, function (u) { self.drawMarks(u, sc, false); });
    upsertChart(this, 'rates', this.rateBox, opts, [xs, offered, delivered, dropped, inflight]);
  };

  SeriesPage.prototype.renderTelemetry = function () {
    var t = this.telemetry;
    var self = this;
    var sc = this.primaryScenario();
    var canary = Object.keys(t.canary).map(Number).sort(function (a, b) { return a - b; });
    if (canary.length) {
      this.ensureBox('canary');
      upsertChart(this, 'canary', this.boxes.canary, this.syncedOpts('disk canary: worst write+fsync per second (ms, rig.canary)', [
        {}, {label: 'fsync max ms', stroke: '#7048e8', width: 1.5}
      ], 160, function (u) { self.drawMarks(u, sc, false); }), [canary, canary.map(function (s) { return t.canary[s].fsyncMaxMs; })]);
    }
    var vm = Object.keys(t.vmstat).map(Number).sort(function (a, b) { return a - b; });
    if (vm.length) {
      this.ensureBox('vmstat');
      upsertChart(this, 'vmstat', this.boxes.vmstat, this.syncedOpts('host CPU % (us+sy, wa) and run queue (rig.vmstat)', [
        {}, {label: 'cpu us+sy %', stroke: '#1971c2', width: 1.5}, {label: 'wa %', stroke: '#e8590c', width: 1},
        {label: 'run queue r', stroke: '#555', width: 1}
      ], 160, function (u) { self.drawMarks(u, sc, false); }), [vm,
        vm.map(function (s) { return t.vmstat[s].us + t.vmstat[s].sy; }),
        vm.map(function (s) { return t.vmstat[s].wa; }),
        vm.map(function (s) { return t.vmstat[s].r; })]);
    }
    var ws = Object.keys(t.waits).map(Number).sort(function (a, b) { return a - b; });
    if (ws.length && !this.chartsByName.waits) {
      // the five events with the most active sessions over what has arrived so far (fixed once drawn)
      var total = {};
      ws.forEach(function (s) {
        Object.keys(t.waits[s]).forEach(function (e) { total[e] = (total[e] || 0) + t.waits[s][e]; });
      });
      this.waitEvents = Object.keys(total).sort(function (a, b) { return total[b] - total[a]; }).slice(0, 5);
    }
    if (ws.length && this.waitEvents && this.waitEvents.length) {
      this.ensureBox('waits');
      var colours = ['#c92a2a', '#1971c2', '#2f9e44', '#f08c00', '#6741d9'];
      var series = [{}].concat(this.waitEvents.map(function (e, i) {
        return {label: e, stroke: colours[i], fill: colours[i] + '55', width: 1};
      }));
      // stacked: each line is the sum of its event and the ones listed before it (sessions add up)
      var data = [ws];
      var running = ws.map(function () { return 0; });
      this.waitEvents.forEach(function (e) {
        running = running.map(function (acc, i) { return acc + (t.waits[ws[i]][e] || 0); });
        data.push(running.slice());
      });
      upsertChart(this, 'waits', this.boxes.waits, this.syncedOpts('top wait events, average active sessions, stacked (rig.waits)',
        series, 180, function (u) { self.drawMarks(u, sc, false); }), data);
    }
  };

  SeriesPage.prototype.ensureBox = function (name) {
    this.boxes = this.boxes || {};
    this.chartsByName = this.chartsByName || {};
    if (!this.boxes[name]) {
      this.boxes[name] = this.telemetryBox.appendChild(el('div', {'class': 'rs-panel', id: 'rs-' + name}));
    }
  };

  SeriesPage.prototype.renderEpisodes = function () {
    var box = this.episodeBox;
    var self = this;
    box.innerHTML = '';
    box.appendChild(el('h2', null, 'Episodes'));
    var keys = Object.keys(this.episodes).sort(function (a, b) {
      return self.episodes[a].body.start - self.episodes[b].body.start;
    });
    if (!keys.length) {
      box.appendChild(el('p', null, 'None.'));
      return;
    }
    keys.forEach(function (k) {
      var e = self.episodes[k];
      var b = e.body;
      var d = box.appendChild(el('details', {'class': 'rs-episode' + (e.provisional ? ' rs-provisional' : ''),
        'data-cause': b.cause, 'data-confidence': b.confidence}));
      d.open = true;
      d.appendChild(el('summary', null, (e.provisional ? '~ provisional: ' : '') + 'rep ' + e.rep + ' '
        + hms(b.start) + '..' + hms(b.end) + ' UTC, ' + b.freeze_seconds + ' freeze-s, worst ' + b.worst_ms
        + ' ms: ' + b.cause + ' (' + b.confidence + ')' + (b.secondary_cause ? ', also ' + b.secondary_cause : '')));
      var ul = d.appendChild(el('ul'));
      (b.evidence || []).forEach(function (line) { ul.appendChild(el('li', null, line)); });
      if (b.missing && b.missing.length) {
        d.appendChild(el('p', {'class': 'rs-missing'}, 'no record over its span: ' + b.missing.join(', ')));
      }
    });
  };

  SeriesPage.prototype.renderGates = function () {
    var box = this.gateBox;
    var self = this;
    box.innerHTML = '';
    box.appendChild(el('h2', null, 'Repeats and gates'));
    var reps = Object.keys(this.repeats).map(Number).sort(function (a, b) { return a - b; });
    if (!reps.length) {
      box.appendChild(el('p', null, 'No repeat judged yet.'));
      return;
    }
    reps.forEach(function (n) {
      var r = self.repeats[n];
      var t = box.appendChild(el('table', {'class': 'rs-gate-table', 'data-rep': String(n)}));
      var cap = t.appendChild(el('caption'));
      cap.appendChild(el('span', {'class': r.pass ? 'rs-pass' : 'rs-fail'}, r.pass ? 'PASS' : 'FAIL'));
      cap.appendChild(document.createTextNode(' rep ' + n + ' (' + r.kind + ', ' + r.scenario + '): ' + r.samples
        + ' samples, ' + r.dropped + ' dropped, ' + r.failed + ' failed, p50 ' + r.p50_ms + ' ms, p99 ' + r.p99_ms
        + ' ms, freeze-s ' + (r.freeze_seconds || []).length + ', worst 10-s p99 ' + fmt(r.worst_10s_p99_ms) + ' ms'));
      var hr = t.appendChild(el('tr'));
      ['gate', 'result', 'value', 'limit'].forEach(function (h) { hr.appendChild(el('th', null, h)); });
      Object.keys(r.gates || {}).forEach(function (g) {
        var gr = r.gates[g];
        var tr = t.appendChild(el('tr', {'class': gr.pass ? 'rs-pass-row' : 'rs-fail-row'}));
        tr.appendChild(el('td', null, g));
        tr.appendChild(el('td', null, gr.pass ? 'pass' : 'FAIL'));
        tr.appendChild(el('td', null, fmt(gr.value)));
        tr.appendChild(el('td', null, fmt(gr.limit)));
      });
    });
  };

  SeriesPage.prototype.renderEnvironment = function () {
    var box = this.envBox;
    box.innerHTML = '';
    var env = this.report && this.report.environment;
    if (!env) { return; }
    box.appendChild(el('h2', null, 'Environment'));
    var t = box.appendChild(el('table'));
    Object.keys(env).forEach(function (k) {
      var tr = t.appendChild(el('tr'));
      tr.appendChild(el('th', null, k));
      tr.appendChild(el('td', null, fmt(env[k])));
    });
  };

  window.RigscopeSeriesPage = SeriesPage;
}());
