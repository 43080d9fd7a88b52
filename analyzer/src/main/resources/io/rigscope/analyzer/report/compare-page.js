/*
 * rigscope comparison page (compare A B --report-html): two series overlaid per second. Each side's wire lines
 * (as the single-series HTML report inlines them) are read by the series page's own RigscopeSeriesPage, never
 * drawn by it; this page draws both on one axis: seconds since each side's first judged (sustained) repeat's
 * first decided second. A is solid, B dashed. Panels: p50/p99 per second, freeze-seconds counted up, and every
 * telemetry panel of the series page (its own PANELS, built for each side on the shared axis). It computes no
 * figure of its own.
 *
 * For tests, the root carries: data-verdict, data-latency-points-a / -b (seconds with a p99 drawn),
 * data-freeze-a / -b (freeze-seconds of the judged repeats), data-panels-drawn.
 */
(function () {
  'use strict';

  var SP = window.RigscopeSeriesPage;
  var el = SP.el;
  var MARGIN = 5;
  var SYNC = 'rigscope-compare-x';

  function Side(name, lines) {
    this.name = name;
    this.page = new SP(document.createElement('div'), {live: false});
    var secsByRep = {};
    var kindByRep = {};
    var self = this;
    lines.forEach(function (l) {
      self.page.accept(l);
      var v = l.value;
      if (l.topic !== 'rig.verdicts' || !v || !v.body) { return; }
      if (v.kind === 'SECOND' && !v.body.provisional) {
        (secsByRep[v.rep] = secsByRep[v.rep] || []).push(v.body.sec);
      } else if (v.kind === 'REPEAT') {
        kindByRep[v.rep] = v.body.kind;
      }
    });
    var reps = Object.keys(kindByRep).filter(function (r) { return kindByRep[r] === 'sustained'; });
    if (!reps.length) { reps = Object.keys(secsByRep); }
    this.judged = {};
    var first = Infinity;
    var last = -Infinity;
    reps.forEach(function (r) {
      (secsByRep[r] || []).forEach(function (s) {
        self.judged[s] = true;
        first = Math.min(first, s);
        last = Math.max(last, s);
      });
    });
    this.origin = isFinite(first) ? first : 0;
    this.span = isFinite(last) ? last - first : 0;
    this.scenario = this.page.primaryScenario();
  }

  /** Points the side's page at the shared axis: relative second r is the side's second origin + r. */
  Side.prototype.onAxis = function (rel) {
    var o = this.origin;
    this.page.axis = rel.map(function (r) { return o + r; });
  };

  function ComparePage(root, a, b, comparison) {
    this.root = root;
    this.a = new Side('A', a);
    this.b = new Side('B', b);
    this.comparison = comparison;
    this.charts = [];
  }

  ComparePage.prototype.width = function () {
    return Math.max(600, Math.min(1400, (document.documentElement.clientWidth || 1200) - 40));
  };

  ComparePage.prototype.opts = function (title, series, height, scales, axes) {
    var self = this;
    var o = {
      title: title, width: this.width(), height: height,
      cursor: {sync: {key: SYNC, setSeries: false}, drag: {x: true, y: false}},
      scales: {x: {time: false}},
      series: [{label: 's'}].concat(series),
      axes: [{label: 'seconds since the first judged repeat started'}].concat(axes || [{}]),
      hooks: {setScale: [function (u, key) {
        if (key !== 'x' || self.syncing) { return; }
        self.syncing = true;
        self.charts.forEach(function (c) { if (c !== u) { c.setScale('x', {min: u.scales.x.min, max: u.scales.x.max}); } });
        self.syncing = false;
      }]}
    };
    Object.keys(scales || {}).forEach(function (k) { o.scales[k] = scales[k]; });
    SP.alignAxes(o);
    return o;
  };

  ComparePage.prototype.chart = function (box, opts, data) {
    box.innerHTML = '';
    var u = new window.uPlot(opts, data, box);
    this.charts.push(u);
    return u;
  };

  function dashed(s) {
    var c = {};
    Object.keys(s).forEach(function (k) { c[k] = s[k]; });
    c.dash = [6, 4];
    return c;
  }

  function labelled(s, side) {
    var c = {};
    Object.keys(s).forEach(function (k) { c[k] = s[k]; });
    c.label = side + ' ' + (s.label || '');
    return c;
  }

  ComparePage.prototype.render = function () {
    var r = this.root;
    var cmp = this.comparison;
    r.innerHTML = '';
    var head = r.appendChild(el('header', {'class': 'rs-head'}));
    var h1 = head.appendChild(el('h1', null, 'rigscope compare: A ' + cmp.a.series + ' against B ' + cmp.b.series + ' '));
    h1.appendChild(el('span', {'class': 'rs-verdict' + (cmp.verdict === 'better' ? ' rs-pass'
      : cmp.verdict === 'worse' || cmp.verdict === 'not_comparable' ? ' rs-fail' : '')}, cmp.verdict || 'no verdict'));
    head.appendChild(el('p', {'class': 'rs-headline'}, cmp.why));
    head.appendChild(el('p', {'class': 'rs-note'}, 'A (the control) solid, B (the treatment) dashed; x: seconds since '
      + 'each side\'s first judged repeat started (A at ' + new Date(this.a.origin * 1000).toISOString().substring(0, 19)
      + ' UTC, B at ' + new Date(this.b.origin * 1000).toISOString().substring(0, 19) + ' UTC).'));
    r.dataset.verdict = cmp.verdict || 'none';

    var to = Math.max(this.a.span, this.b.span) + MARGIN;
    var rel = [];
    for (var s = -MARGIN; s <= to; s++) { rel.push(s); }
    this.a.onAxis(rel);
    this.b.onAxis(rel);

    this.renderLatency(r.appendChild(el('section', {'class': 'rs-panel', id: 'rs-latency'})), rel);
    this.renderFreezes(r.appendChild(el('section', {'class': 'rs-panel', id: 'rs-freezes'})), rel);
    var tele = r.appendChild(el('section', {'class': 'rs-telemetry'}));
    var drawn = 0;
    var self = this;
    SP.PANELS.forEach(function (p) {
      var box = tele.appendChild(el('div', {'class': 'rs-panel', id: 'rs-' + p.name}));
      var sa = p.build(self.a.page);
      var sb = p.build(self.b.page);
      if (!sa && !sb) {
        box.appendChild(el('div', {'class': 'rs-panel-title'}, p.title));
        box.appendChild(el('p', {'class': 'rs-nodata', 'data-stream': p.stream},
          (p.empty || ('no data on ' + p.stream)) + ' (A and B)'));
        return;
      }
      var spec = sa || sb;
      var series = [];
      var data = [rel];
      [[sa, 'A', self.a], [sb, 'B', self.b]].forEach(function (x) {
        var sp = x[0];
        var n = spec.series.length;
        if (sp) {
          sp.series.forEach(function (s) { series.push(x[1] === 'B' ? dashed(labelled(s, 'B')) : labelled(s, 'A')); });
          data = data.concat(sp.data);
        } else {
          spec.series.forEach(function (s) { series.push(labelled(s, x[1] + ' (no data)')); });
          for (var i = 0; i < n; i++) { data.push(rel.map(function () { return null; })); }
        }
      });
      if (sa && sb && sa.series.length !== sb.series.length) {
        // the two sides' panels differ in shape (e.g. another device count): drawn apart
        box.appendChild(el('p', {'class': 'rs-note'}, p.title + ': the sides differ in what this panel holds'));
      }
      self.chart(box, self.opts(p.title + ', A solid, B dashed', series, p.height || 170, spec.scales,
        spec.axes), data);
      drawn++;
    });
    r.dataset.panelsDrawn = String(drawn);
    var pre = r.appendChild(el('section', {'class': 'rs-comparison', id: 'rs-comparison'}));
    pre.appendChild(el('h2', null, 'Comparison'));
    pre.appendChild(el('pre', null, (cmp.lines || []).join('\n')));
  };

  ComparePage.prototype.renderLatency = function (box, rel) {
    var data = [rel];
    var series = [];
    var self = this;
    [this.a, this.b].forEach(function (side) {
      var byS = (side.scenario && side.page.seconds[side.scenario]) || {};
      var p99 = side.page.column(byS, function (b) { return b.provisional ? null : SP.positive(b.p99_ms); });
      var p50 = side.page.column(byS, function (b) { return b.provisional ? null : SP.positive(b.p50_ms); });
      data.push(p99, p50);
      var drawnPts = p99.filter(function (v) { return v !== null; }).length;
      self.root.dataset['latencyPoints' + side.name] = String(drawnPts);
      var b = side.name === 'B';
      series.push({label: side.name + ' p99 ms', stroke: b ? '#1971c2' : '#d9480f', width: 2, dash: b ? [6, 4] : undefined},
        {label: side.name + ' p50 ms', stroke: b ? '#74c0fc' : '#ffa94d', width: 1, dash: b ? [6, 4] : undefined});
    });
    var o = this.opts('service time per second (ms, log scale): A solid, B dashed', series, 320, {y: {distr: 3}},
      [{label: 'ms'}]);
    this.chart(box, o, data);
  };

  ComparePage.prototype.renderFreezes = function (box, rel) {
    var data = [rel];
    var series = [];
    var self = this;
    [this.a, this.b].forEach(function (side) {
      var fz = (side.scenario && side.page.freezes[side.scenario]) || {};
      var count = 0;
      var total = Object.keys(fz).filter(function (s) { return side.judged[s]; }).length;
      data.push(rel.map(function (r) {
        var sec = side.origin + r;
        if (fz[sec] && side.judged[sec]) { count++; }
        return count;
      }));
      self.root.dataset['freeze' + side.name] = String(total);
      var b = side.name === 'B';
      series.push({label: side.name + ' freeze-seconds so far (' + total + ')', stroke: b ? '#1971c2' : '#c92a2a',
        width: 2, dash: b ? [6, 4] : undefined, paths: window.uPlot.paths.stepped({align: 1})});
    });
    this.chart(box, this.opts('freeze-seconds of the judged repeats, counted up: A solid, B dashed', series, 200, {},
      [{label: 'freeze-s'}]), data);
  };

  window.RigscopeComparePage = ComparePage;
}());
