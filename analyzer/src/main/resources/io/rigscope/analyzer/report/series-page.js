/*
 * rigscope series page: the one view of a series, shared by the HTML report (wire lines inlined) and the
 * dashboard (wire lines streamed as server-sent events). It draws what the analyzer decided and what the
 * telemetry records say; it computes no figure of its own (no histogram, no percentile, no rate).
 *
 * Input: wire lines {"topic": "rig.verdicts" | "rig.vmstat" | "rig.os" | "rig.db" | "rig.waits" | "rig.canary" |
 * "rig.health", "key": series, "value": record}, as docs/wire-format.md shows them. Needs uPlot (window.uPlot).
 * Telemetry is drawn as recorded; the one conversion is rig.db's WAL bytes over its interval to bytes per second.
 *
 * Every chart shares one time axis (the same seconds, so a drag zooms them all and the cursor moves on all).
 * A telemetry panel with nothing to draw says "no data on <stream>".
 *
 * For tests, the root element carries what is drawn: data-latency-points (points on the latency chart),
 * data-freeze-marked (freeze-seconds marked), data-episodes-marked (episode bands drawn), data-verdict,
 * data-panels-drawn (telemetry panels with a chart), data-selected-episode (the band last clicked),
 * data-server-timing-points (seconds whose slowest timed request is drawn on the Server-Timing panel).
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
    this.stops = {};          // rep -> ABORT body (abortOnFail stopped the repeat; live)
    this.ceiling = null;
    this.report = null;       // SERIES body
    this.telemetry = {canary: {}, vmstat: {}, waits: {}, os: {}, db: {}, health: {}};
    this.selected = null;     // key of the episode whose band was clicked
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
    this.detailBox = r.appendChild(el('section', {'class': 'rs-episode-detail', id: 'rs-episode-detail'}));
    this.detailBox.appendChild(el('p', {'class': 'rs-note'}, 'Click an episode band to see its evidence here.'));
    this.rateBox = r.appendChild(el('section', {'class': 'rs-panel', id: 'rs-rates'}));
    this.timingBox = r.appendChild(el('section', {'class': 'rs-panel', id: 'rs-server-timing'}));
    this.timingChartBox = this.timingBox.appendChild(el('div'));
    this.timingNote = this.timingBox.appendChild(el('p', {'class': 'rs-note', id: 'rs-server-timing-slowest'}));
    this.telemetryBox = r.appendChild(el('section', {'class': 'rs-telemetry'}));
    var self = this;
    PANELS.forEach(function (p) {
      self.ensureBox(p.name);
      self.noData(p);
    });
    this.episodeBox = r.appendChild(el('section', {'class': 'rs-episodes', id: 'rs-episodes'}));
    this.gateBox = r.appendChild(el('section', {'class': 'rs-gates', id: 'rs-gates'}));
    this.envBox = r.appendChild(el('section', {'class': 'rs-env', id: 'rs-env'}));
    r.dataset.latencyPoints = '0';
    r.dataset.freezeMarked = '0';
    r.dataset.episodesMarked = '0';
    r.dataset.serverTimingPoints = '0';
  };

  /** Takes one wire line; call render() (or schedule()) after a batch. */
  SeriesPage.prototype.accept = function (line) {
    var v = line.value;
    if (!v) { return; }
    if (!this.seriesId && line.key) { this.seriesId = line.key; }
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
    } else if (line.topic === 'rig.os') {
      this.telemetry.os[Math.floor(v.ts / 1e6)] = v.diskIO || [];
    } else if (line.topic === 'rig.db') {
      this.telemetry.db[Math.floor(v.ts / 1e6)] = v;
    } else if (line.topic === 'rig.health') {
      var hs = Math.floor(v.ts / 1e6);
      var h = this.telemetry.health[hs] || {jvmPauseMs: 0, gcPauseMs: 0, loopLagMs: 0, oldestInFlightMs: 0};
      // several generators: the worst of them in the second
      h.jvmPauseMs = Math.max(h.jvmPauseMs, v.jvmPauseMs || 0);
      h.gcPauseMs = Math.max(h.gcPauseMs, v.gcPauseMs || 0);
      h.loopLagMs = Math.max(h.loopLagMs, v.loopLagMs || 0);
      h.oldestInFlightMs = Math.max(h.oldestInFlightMs, v.oldestInFlightMs || 0);
      this.telemetry.health[hs] = h;
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
      case 'ABORT':
        this.stops[v.rep] = b;
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
    this.axis = this.sharedAxis(sc);
    this.fitWidth();
    this.renderLatency(sc, secs);
    this.renderRates(sc, secs);
    this.renderServerTiming(sc, secs);
    this.renderTelemetry();
    this.renderEpisodes();
    this.renderDetail();
    this.renderGates();
    this.renderEnvironment();
    this.fitWidth();
  };

  /**
   * The seconds every chart is drawn on: each second that holds a decision of the shown scenario or a telemetry
   * record, in order, with one empty second inserted where a gap opens (so no line bridges it).
   */
  SeriesPage.prototype.sharedAxis = function (sc) {
    var all = {};
    var decided = sortedKeys((sc && this.seconds[sc]) || {});
    // once seconds are decided, the axis is their span and a margin: telemetry of the set-up and the end of a
    // series (collectors run from its start to its verdict) would squeeze the load into a corner
    var from = decided.length ? decided[0] - AXIS_MARGIN_SEC : -Infinity;
    var to = decided.length ? decided[decided.length - 1] + AXIS_MARGIN_SEC : Infinity;
    var add = function (obj) {
      Object.keys(obj || {}).forEach(function (k) { if (k >= from && k <= to) { all[k] = true; } });
    };
    add(sc ? this.seconds[sc] : null);
    var t = this.telemetry;
    Object.keys(t).forEach(function (k) { add(t[k]); });
    var secs = Object.keys(all).map(Number).sort(function (a, b) { return a - b; });
    var xs = [];
    secs.forEach(function (s, i) {
      if (i > 0 && s - secs[i - 1] > 2) { xs.push(s - 1); }
      xs.push(s);
    });
    return xs;
  };

  /** One value per second of the shared axis: fn(sec) where the stream has the second, else null. */
  SeriesPage.prototype.column = function (byS, fn) {
    return this.axis.map(function (s) {
      var v = byS[s];
      if (v === undefined) { return null; }
      var out = fn(v, s);
      return out === undefined || (typeof out === 'number' && !isFinite(out)) ? null : out;
    });
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

  SeriesPage.prototype.chartWidth = function () {
    return Math.max(480, (this.root.clientWidth || 960) - 24);
  };

  /** Every chart as wide as the page now is (a scroll bar may have come since one was drawn): x stays aligned. */
  SeriesPage.prototype.fitWidth = function () {
    var width = this.chartWidth();
    this.charts.forEach(function (u) {
      if (u.width !== width) { u.setSize({width: width, height: u.height}); }
    });
  };

  SeriesPage.prototype.syncedOpts = function (title, series, height, draw) {
    var self = this;
    var width = this.chartWidth();
    return {
      title: title,
      width: width,
      height: height,
      cursor: {sync: {key: SYNC_KEY, setSeries: false}, drag: {x: true, y: false}},
      scales: {x: {time: true}},
      series: series,
      hooks: {
        init: [function (u) { self.listenForBandClicks(u); }],
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

  /** A click (not a drag) on a chart selects the episode whose band holds that second. */
  SeriesPage.prototype.listenForBandClicks = function (u) {
    var self = this;
    var downX = null;
    u.over.addEventListener('mousedown', function (e) { downX = e.clientX; });
    u.over.addEventListener('click', function (e) {
      if (downX !== null && Math.abs(e.clientX - downX) > 3) { return; }
      var sec = u.posToVal(e.offsetX, 'x');
      var hit = null;
      Object.keys(self.episodes).forEach(function (k) {
        var b = self.episodes[k].body;
        if (sec >= b.start && sec < b.end + 1) { hit = k; }
      });
      if (hit) { self.select(hit); }
    });
  };

  /** Shows the evidence of one episode below the latency chart and marks its entry in the list. */
  SeriesPage.prototype.select = function (key) {
    this.selected = key;
    this.root.dataset.selectedEpisode = key;
    this.renderDetail();
    this.renderEpisodes();
    this.detailBox.scrollIntoView({block: 'nearest'});
  };

  SeriesPage.prototype.renderDetail = function () {
    var box = this.detailBox;
    var e = this.selected ? this.episodes[this.selected] : null;
    if (!e) { return; }
    box.innerHTML = '';
    box.appendChild(this.episodeBlock(e, true));
  };

  var LEFT_AXIS_PX = 70;
  var RIGHT_AXIS_PX = 56;
  var AXIS_LABEL_PX = 20;
  /** Seconds of telemetry shown before the first decided second and after the last. */
  var AXIS_MARGIN_SEC = 5;
  /** Tick spacings of the time axis, seconds: never finer than a second (the analyzer's unit). */
  var TIME_INCREMENTS_SEC = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 86400];

  /**
   * Every chart gets the same left axis width and a right axis (its own second scale, or an empty spacer), so
   * the plotting areas line up and one second sits at the same x on every chart.
   */
  function alignAxes(opts) {
    var axes = opts.axes || [{}];
    var x = axes[0] || {};
    x.incrs = x.incrs || TIME_INCREMENTS_SEC;
    var left = axes[1] || {};
    left.size = LEFT_AXIS_PX;
    left.label = left.label || ' ';
    left.labelSize = AXIS_LABEL_PX;
    var right = axes[2];
    if (!right) {
      right = {side: 1, grid: {show: false}, ticks: {show: false}, values: function () { return []; }};
    }
    right.size = RIGHT_AXIS_PX;
    right.label = right.label || ' ';
    right.labelSize = AXIS_LABEL_PX;
    opts.axes = [x, left, right];
  }

  function upsertChart(page, name, box, opts, data) {
    page.chartsByName = page.chartsByName || {};
    var u = page.chartsByName[name];
    if (!u) {
      alignAxes(opts);
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
    var xs = this.axis;
    var p50 = this.column(byS, function (b) { return b.provisional ? null : positive(b.p50_ms); });
    var p99 = this.column(byS, function (b) { return b.provisional ? null : positive(b.p99_ms); });
    var max = this.column(byS, function (b) { return b.provisional ? null : positive(b.max_ms); });
    var p99prov = this.column(byS, function (b) { return b.provisional ? positive(b.p99_ms) : null; });
    var points = secs.filter(function (s) { return positive(byS[s].p99_ms) !== null; }).length;
    if (secs.length === 0) {
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
    var rowRight = [-Infinity, -Infinity, -Infinity];   // label rows: where each row's last label ends
    var keys = Object.keys(this.episodes).sort(function (a, b) {
      return self.episodes[a].body.start - self.episodes[b].body.start;
    });
    keys.forEach(function (k) {
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
        var text = (e.provisional ? '~ ' : '') + e.body.cause + ' (' + e.body.confidence + ')'
          + (e.provisional ? ' provisional' : '');
        // the first row where it does not run into the label before it; none free: the band's list entry says it
        var row = rowRight.findIndex(function (right) { return x0 + 4 >= right; });
        if (row >= 0) {
          ctx.fillText(text, x0 + 4, top + (4 + 16 * row) * devicePixelRatio);
          rowRight[row] = x0 + 4 + ctx.measureText(text).width + 8 * devicePixelRatio;
        }
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
    var xs = this.axis;
    var offered = this.column(byS, function (b) { return b.scheduled; });
    var delivered = this.column(byS, function (b) { return b.count - b.failed; });
    var dropped = this.column(byS, function (b) { return b.dropped; });
    var inflight = this.column(byS, function (b) { return b.in_flight; });
    var opts = this.syncedOpts('requests per second: offered (scheduled), delivered (ended, not failed), dropped, in flight', [
      {},
      {label: 'offered', stroke: '#2b7bb9', width: 1.5},
      {label: 'delivered', stroke: '#2f9e44', width: 1.5},
      {label: 'dropped', stroke: '#e00', width: 1.5},
      {label: 'in flight', stroke: '#888', width: 1}
    ], 200, function (u) { self.drawMarks(u, sc, false); });
    upsertChart(this, 'rates', this.rateBox, opts, [xs, offered, delivered, dropped, inflight]);
  };

  /** The Server-Timing names drawn first, in this order and colour; any other name the service gives follows. */
  var TIMING_NAMES = ['pool', 'db', 'app'];
  var TIMING_COLOURS = {pool: '#e8590c', db: '#1971c2', app: '#2f9e44'};

  /**
   * Where the service says each second's time went: for each second, its slowest request that carried
   * Server-Timing (SECOND's slowest_timed), the service time the generator measured for it beside each metric the
   * service named for it (pool, db, app, ...), with the second's measured p99. Below, that request for the slowest
   * second, in words. Nothing is added up or computed here: every figure is a SECOND body's.
   */
  SeriesPage.prototype.renderServerTiming = function (sc, secs) {
    var self = this;
    var byS = (sc && this.seconds[sc]) || {};
    var timed = secs.filter(function (s) { return byS[s].slowest_timed && !byS[s].provisional; });
    if (!timed.length) {
      if (!this.chartsByName.timing) {
        this.timingChartBox.innerHTML = '';
        this.timingChartBox.appendChild(el('div', {'class': 'rs-panel-title'}, TIMING_TITLE));
        this.timingChartBox.appendChild(el('p', {'class': 'rs-nodata', 'data-stream': 'Server-Timing'},
          'no Server-Timing: no response of ' + (sc || 'the load') + ' carried the header (the service does not tell its time)'));
      }
      this.timingNote.textContent = '';
      this.root.dataset.serverTimingPoints = '0';
      return;
    }
    var names = TIMING_NAMES.filter(function (n) {
      return timed.some(function (s) { return byS[s].slowest_timed.timing_ms[n] !== undefined; });
    });
    timed.forEach(function (s) {
      Object.keys(byS[s].slowest_timed.timing_ms).forEach(function (n) { if (names.indexOf(n) < 0) { names.push(n); } });
    });
    var series = [{},
      {label: 'measured ms (slowest timed request)', stroke: '#222', width: 2, spanGaps: false},
      {label: 'measured p99 ms (the second)', stroke: '#aaa', width: 1, dash: [4, 3], spanGaps: false}];
    var data = [this.axis,
      this.column(byS, function (b) { return b.slowest_timed && !b.provisional ? b.slowest_timed.service_ms : null; }),
      this.column(byS, function (b) { return b.slowest_timed && !b.provisional ? b.p99_ms : null; })];
    names.forEach(function (n, i) {
      series.push({label: n + ' ms', stroke: TIMING_COLOURS[n] || COLOURS[i % COLOURS.length], width: 1.5, spanGaps: false});
      data.push(self.column(byS, function (b) {
        var v = b.slowest_timed && !b.provisional ? b.slowest_timed.timing_ms[n] : undefined;
        return v === undefined ? null : v;
      }));
    });
    if (this.chartsByName.timing && this.timingNames !== names.join(',')) {
      // a name seen for the first time: the chart's series change, so it is drawn again
      var old = this.chartsByName.timing;
      this.charts.splice(this.charts.indexOf(old), 1);
      delete this.chartsByName.timing;
      old.destroy();
    }
    this.timingNames = names.join(',');
    if (!this.chartsByName.timing) { this.timingChartBox.innerHTML = ''; }
    var opts = this.syncedOpts(TIMING_TITLE, series, 220, function (u) { self.drawMarks(u, sc, false); });
    opts.axes = [{}, {label: 'ms'}];
    upsertChart(this, 'timing', this.timingChartBox, opts, data);
    var worst = timed.reduce(function (a, s) {
      return a === null || byS[s].slowest_timed.service_ms > byS[a].slowest_timed.service_ms ? s : a;
    }, null);
    var w = byS[worst].slowest_timed;
    this.timingNote.textContent = 'slowest timed request: ' + hms(worst) + ' UTC, measured ' + w.service_ms
      + ' ms; the service said ' + Object.keys(w.timing_ms).map(function (n) { return n + ' ' + w.timing_ms[n] + ' ms'; }).join(', ')
      + ' (' + timed.length + ' seconds with Server-Timing)';
    this.timingNote.dataset.sec = String(worst);
    this.root.dataset.serverTimingPoints = String(timed.length);
  };

  var TIMING_TITLE = 'where the service says the time went, per second (Server-Timing, ms): the slowest timed request';

  SeriesPage.prototype.renderTelemetry = function () {
    var self = this;
    var drawn = 0;
    PANELS.forEach(function (p) {
      var spec = p.build(self);
      if (!spec) {
        self.noData(p);
        return;
      }
      var box = self.boxes[p.name];
      if (!self.chartsByName[p.name]) { box.innerHTML = ''; }
      var opts = self.syncedOpts(p.title, [{}].concat(spec.series), p.height || 160,
        function (u) { self.drawMarks(u, self.primaryScenario(), false); });
      if (spec.scales) { Object.keys(spec.scales).forEach(function (k) { opts.scales[k] = spec.scales[k]; }); }
      if (spec.axes) { opts.axes = [{}].concat(spec.axes); }
      upsertChart(self, p.name, box, opts, [self.axis].concat(spec.data));
      drawn++;
    });
    this.root.dataset.panelsDrawn = String(drawn);
  };

  /** A panel's place when it has nothing to draw: what it would show and the stream it waits for. */
  SeriesPage.prototype.noData = function (p) {
    var box = this.boxes[p.name];
    if (this.chartsByName[p.name]) { return; }
    box.innerHTML = '';
    box.appendChild(el('div', {'class': 'rs-panel-title'}, p.title));
    box.appendChild(el('p', {'class': 'rs-nodata', 'data-stream': p.stream}, p.empty || ('no data on ' + p.stream)));
  };

  function sortedKeys(obj) {
    return Object.keys(obj).map(Number).sort(function (a, b) { return a - b; });
  }

  /** The device with the most IO over the series (rig.os lists every device). */
  function busiestDevice(os) {
    var total = {};
    Object.keys(os).forEach(function (s) {
      os[s].forEach(function (d) {
        total[d.device] = (total[d.device] || 0) + (d.readIOsPS || 0) + (d.writeIOsPS || 0);
      });
    });
    var best = null;
    Object.keys(total).sort().forEach(function (d) { if (best === null || total[d] > total[best]) { best = d; } });
    return best;
  }

  function device(list, name) {
    for (var i = 0; i < list.length; i++) { if (list[i].device === name) { return list[i]; } }
    return undefined;
  }

  /** pg_stat_progress_vacuum phases, in the order a vacuum passes them (PostgreSQL 13-17). */
  var VACUUM_PHASES = ['initializing', 'scanning heap', 'vacuuming indexes', 'vacuuming heap',
    'cleaning up indexes', 'truncating heap', 'performing final cleanup'];

  /** The same phases, short enough for the axis. */
  var VACUUM_PHASE_LABELS = ['init', 'scan heap', 'vac index', 'vac heap', 'clean idx', 'truncate', 'final'];

  function vacuumPhaseNumber(phase) {
    var i = VACUUM_PHASES.indexOf(phase);
    return i < 0 ? VACUUM_PHASES.length + 1 : i + 1;
  }

  var COLOURS = ['#c92a2a', '#1971c2', '#2f9e44', '#f08c00', '#6741d9', '#0c8599', '#e64980'];

  /**
   * The telemetry panels, in page order. build(page) returns null when the stream has nothing to draw, else
   * {series, data (one column per series, on the shared axis), scales, axes}.
   */
  var PANELS = [
    {name: 'vmstat', stream: 'rig.vmstat', title: 'host CPU % (us+sy, wa) and run queue (rig.vmstat)',
      build: function (page) {
        var vm = page.telemetry.vmstat;
        if (!Object.keys(vm).length) { return null; }
        return {
          series: [{label: 'cpu us+sy %', stroke: '#1971c2', width: 1.5, spanGaps: true},
            {label: 'wa %', stroke: '#e8590c', width: 1, spanGaps: true},
            {label: 'run queue r', stroke: '#555', width: 1, scale: 'r', spanGaps: true}],
          data: [page.column(vm, function (v) { return v.us + v.sy; }), page.column(vm, function (v) { return v.wa; }),
            page.column(vm, function (v) { return v.r; })],
          scales: {r: {}},
          axes: [{label: '%'}, {scale: 'r', side: 1, label: 'r', grid: {show: false}}]
        };
      }},
    {name: 'iops', stream: 'rig.os', title: 'disk IOPS, read and write (rig.os)',
      build: function (page) {
        var os = page.telemetry.os;
        var dev = busiestDevice(os);
        if (dev === null) { return null; }
        return {
          series: [{label: 'read IOPS ' + dev, stroke: '#2f9e44', width: 1.5, spanGaps: true},
            {label: 'write IOPS ' + dev, stroke: '#c92a2a', width: 1.5, spanGaps: true}],
          data: [page.column(os, function (l) { var d = device(l, dev); return d && d.readIOsPS; }),
            page.column(os, function (l) { var d = device(l, dev); return d && d.writeIOsPS; })],
          axes: [{label: 'IO/s'}]
        };
      }},
    {name: 'disk', stream: 'rig.os', title: 'disk average request size (KB) and queue depth (rig.os)',
      build: function (page) {
        var os = page.telemetry.os;
        var dev = busiestDevice(os);
        if (dev === null) { return null; }
        return {
          series: [{label: 'avg request KB ' + dev, stroke: '#1971c2', width: 1.5, spanGaps: true},
            {label: 'queue depth ' + dev, stroke: '#f08c00', width: 1.5, scale: 'q', spanGaps: true}],
          data: [page.column(os, function (l) { var d = device(l, dev); return d && d.avgReqSz; }),
            page.column(os, function (l) { var d = device(l, dev); return d && d.avgQueueLen; })],
          scales: {q: {}},
          axes: [{label: 'KB'}, {scale: 'q', side: 1, label: 'queue', grid: {show: false}}]
        };
      }},
    {name: 'wal', stream: 'rig.db', title: 'WAL written (MB/s, pg_stat_wal) and WAL files present (pg_ls_waldir) (rig.db)',
      build: function (page) {
        var db = page.telemetry.db;
        var secs = sortedKeys(db).filter(function (s) { return db[s].wal || db[s].walDir; });
        if (!secs.length) { return null; }
        return {
          series: [{label: 'WAL MB/s', stroke: '#6741d9', width: 1.5, spanGaps: true},
            {label: 'WAL files', stroke: '#555', width: 1.5, scale: 'files', spanGaps: true}],
          data: [page.column(db, function (v) {
            return v.wal && v.intervalMs > 0 ? v.wal.bytes / (v.intervalMs / 1000) / 1e6 : null;
          }), page.column(db, function (v) { return v.walDir ? v.walDir.files : null; })],
          scales: {files: {}},
          axes: [{label: 'MB/s'}, {scale: 'files', side: 1, label: 'files', grid: {show: false}}]
        };
      }},
    {name: 'vacuum', stream: 'rig.db', title: 'vacuum phase per table (pg_stat_progress_vacuum, rig.db)',
      empty: null, height: 200,
      build: function (page) {
        var db = page.telemetry.db;
        var tables = {};
        Object.keys(db).forEach(function (s) {
          (db[s].vacuums || []).forEach(function (v) { tables[v.table] = true; });
        });
        var names = Object.keys(tables).sort();
        if (!names.length) {
          this.empty = Object.keys(db).length ? 'no vacuum in progress in any rig.db reading' : null;
          return null;
        }
        return {
          series: names.map(function (t, i) {
            return {label: t, stroke: COLOURS[i % COLOURS.length], width: 3, paths: window.uPlot.paths.stepped({align: 1})};
          }),
          data: names.map(function (t) {
            return page.column(db, function (v) {
              var row = (v.vacuums || []).filter(function (x) { return x.table === t; })[0];
              return row ? vacuumPhaseNumber(row.phase) : null;
            });
          }),
          scales: {y: {range: [0, VACUUM_PHASES.length + 1]}},
          axes: [{splits: function () { return VACUUM_PHASES.map(function (p, i) { return i + 1; }); },
            values: function (u, ticks) { return ticks.map(function (t) { return VACUUM_PHASE_LABELS[t - 1] || 'other'; }); }}]
        };
      }},
    {name: 'waits', stream: 'rig.waits', title: 'top wait events, average active sessions, stacked (rig.waits)', height: 180,
      build: function (page) {
        var t = page.telemetry.waits;
        var ws = sortedKeys(t);
        if (!ws.length) { return null; }
        if (!page.chartsByName.waits) {
          // the five events with the most active sessions over what has arrived so far (fixed once drawn)
          var total = {};
          ws.forEach(function (s) {
            Object.keys(t[s]).forEach(function (e) { total[e] = (total[e] || 0) + t[s][e]; });
          });
          page.waitEvents = Object.keys(total).sort(function (a, b) { return total[b] - total[a]; }).slice(0, 5);
        }
        if (!page.waitEvents.length) { return null; }
        // stacked: each line is the sum of its event and the ones listed before it (sessions add up)
        var data = [];
        var listed = [];
        page.waitEvents.forEach(function (e) {
          listed.push(e);
          var upTo = listed.slice();
          data.push(page.column(t, function (load) {
            return upTo.reduce(function (acc, x) { return acc + (load[x] || 0); }, 0);
          }));
        });
        return {
          series: page.waitEvents.map(function (e, i) {
            return {label: e, stroke: COLOURS[i], fill: COLOURS[i] + '55', width: 1, spanGaps: true};
          }),
          data: data
        };
      }},
    {name: 'canary', stream: 'rig.canary', title: 'disk canary: worst write+fsync per second (ms, rig.canary)',
      build: function (page) {
        var c = page.telemetry.canary;
        if (!Object.keys(c).length) { return null; }
        return {
          series: [{label: 'fsync max ms', stroke: '#7048e8', width: 1.5, spanGaps: true}],
          data: [page.column(c, function (v) { return v.fsyncMaxMs; })]
        };
      }},
    {name: 'health', stream: 'rig.health', title: 'generator pauses: JVM pause, GC, event-loop lag, oldest in flight (ms, rig.health)',
      build: function (page) {
        var h = page.telemetry.health;
        if (!Object.keys(h).length) { return null; }
        return {
          series: [{label: 'JVM pause ms', stroke: '#c92a2a', width: 1.5, spanGaps: true},
            {label: 'GC pause ms', stroke: '#f08c00', width: 1, spanGaps: true},
            {label: 'loop lag ms', stroke: '#1971c2', width: 1, spanGaps: true},
            {label: 'oldest in flight ms', stroke: '#888', width: 1, dash: [3, 3], spanGaps: true}],
          data: [page.column(h, function (v) { return v.jvmPauseMs; }), page.column(h, function (v) { return v.gcPauseMs; }),
            page.column(h, function (v) { return v.loopLagMs; }), page.column(h, function (v) { return v.oldestInFlightMs; })]
        };
      }}
  ];

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
      var d = box.appendChild(self.episodeBlock(self.episodes[k], false));
      d.setAttribute('data-key', k);
      if (k === self.selected) { d.classList.add('rs-selected'); }
    });
  };

  /** One episode: span, cause, confidence, evidence items and the streams that had no record over it. */
  SeriesPage.prototype.episodeBlock = function (e, selected) {
    var b = e.body;
    var d = el('details', {'class': 'rs-episode' + (e.provisional ? ' rs-provisional' : '') + (selected ? ' rs-selected' : ''),
      'data-cause': b.cause, 'data-confidence': b.confidence});
    d.open = true;
    d.appendChild(el('summary', null, (e.provisional ? '~ provisional: ' : '') + 'rep ' + e.rep + ' '
      + hms(b.start) + '..' + hms(b.end) + ' UTC, ' + b.freeze_seconds + ' freeze-s, worst ' + b.worst_ms
      + ' ms: ' + b.cause + ' (' + b.confidence + ')' + (b.secondary_cause ? ', also ' + b.secondary_cause : '')));
    var ul = d.appendChild(el('ul', {'class': 'rs-evidence'}));
    (b.evidence || []).forEach(function (line) { ul.appendChild(el('li', null, line)); });
    if (b.missing && b.missing.length) {
      var since = b.missing_silent_since || {};
      d.appendChild(el('p', {'class': 'rs-missing'}, 'no record over its span: ' + b.missing.map(function (m) {
        return since[m] ? m + ' (silent since ' + hms(since[m]) + ')' : m;
      }).join(', ')));
    }
    if (b.lever) {
      var l = b.lever;
      var head = l.setting ? l.setting + '=' + l.value + (l.also || []).map(function (a) { return ', ' + a.setting + '=' + a.value; }).join('')
        : (l.action || 'not computed');
      d.appendChild(el('p', {'class': 'rs-lever'}, 'lever: ' + head + ' (' + l.why + ')'));
    }
    return d;
  };

  /** An abortOnFail stop in words (the REPEAT body's aborted, or an ABORT verdict's body). */
  function abortText(a) {
    return 'aborted ' + (a.at_ms / 1000) + ' s into ' + (a.scheduled_ms ? 'its ' + (a.scheduled_ms / 1000) + ' s schedule' : 'its schedule')
      + ': ' + a.threshold + ' measured ' + fmt(a.value) + ' over ' + a.seconds_closed + ' closed second(s) (abortOnFail'
      + (a.delay_ms ? ', delayAbortEval ' + (a.delay_ms / 1000) + ' s' : '') + ')';
  }

  /** A repeat ended by a silent generator, in words (the REPEAT body's silence: repeat.Silence.describe). */
  function silenceText(x) {
    var covered = Object.keys(x.ledger_covered_to_sec || {}).map(function (g) {
      var sec = x.ledger_covered_to_sec[g];
      return g + ' ' + (sec < 0 ? 'no second' : hms(sec));
    }).join(', ');
    return 'ended: generator ' + x.generator + ' silent since ' + hms(x.since_sec) + ': ' + x.never_offered_s + ' of '
      + x.scheduled_s + ' s of the schedule never offered; ledger covered up to ' + covered + ': ' + x.note;
  }

  SeriesPage.prototype.renderGates = function () {
    var box = this.gateBox;
    var self = this;
    box.innerHTML = '';
    box.appendChild(el('h2', null, 'Repeats and gates'));
    var reps = Object.keys(this.repeats).map(Number).sort(function (a, b) { return a - b; });
    Object.keys(this.stops).map(Number).filter(function (n) { return !self.repeats[n]; }).forEach(function (n) {
      box.appendChild(el('p', {'class': 'rs-fail rs-aborted'}, 'rep ' + n + ' stopping: ' + abortText(self.stops[n])));
    });
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
      if (r.aborted) {
        t.appendChild(el('tr', {'class': 'rs-fail-row rs-aborted'})).appendChild(el('td', {colspan: '4'},
          abortText(r.aborted)));
      }
      if (r.ended_by === 'generator_silent' && r.silence) {
        t.appendChild(el('tr', {'class': 'rs-fail-row rs-silent'})).appendChild(el('td', {colspan: '4'},
          silenceText(r.silence)));
      }
      var hr = t.appendChild(el('tr'));
      ['gate', 'result', 'value', 'limit'].forEach(function (h) { hr.appendChild(el('th', null, h)); });
      Object.keys(r.gates || {}).forEach(function (g) {
        var gr = r.gates[g];
        var tr = t.appendChild(el('tr', {'class': gr.pass ? 'rs-pass-row' : 'rs-fail-row'}));
        tr.appendChild(el('td', null, g));
        tr.appendChild(el('td', null, gr.pass ? 'pass' : 'FAIL'));
        tr.appendChild(el('td', null, fmt(gr.value)));
        tr.appendChild(el('td', null, fmt(gr.limit)));
        if (gr.reason) {
          // why it failed when the figures alone do not say it, or why it held with its value beyond its limit
          // (GateResult.reason)
          t.appendChild(el('tr', {'class': (gr.pass ? 'rs-pass-row' : 'rs-fail-row') + ' rs-reason'}))
            .appendChild(el('td', {colspan: '4'}, g + (gr.pass ? ' held: ' : ': ') + gr.reason));
        }
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

  // for the comparison page (compare-page.js): the panels and the axis layout, drawn the same way there
  SeriesPage.PANELS = PANELS;
  SeriesPage.alignAxes = alignAxes;
  SeriesPage.positive = positive;
  SeriesPage.el = el;
  window.RigscopeSeriesPage = SeriesPage;
}());
