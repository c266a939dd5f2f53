// The series chart: per machine the median line over versions (in version order), the min–max band
// and the raw samples as dots. The series page names its data (data-chart-src): the script fetches it,
// and on a long history the server sends buckets of versions (median, lowest and highest of their
// levels); dragging across the chart fetches the narrower range, with every version and its samples once
// it is short enough; double-click goes back to the whole history. The regression page embeds its
// short stretch of versions (data-chart).
(function () {
  'use strict';
  var PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#332288', '#555555'];
  var MARK = { regression: '#b3261e', improvement: '#1d6b3a', note: '#4b2f7f' };
  var GLYPH = { regression: '▲', improvement: '▼', note: '◆' };
  // values arrive in the series' unit and are written in the one the server chose for them (data.shown: GB/s, 1e9)
  var shownPer = 1;

  function fmt(v) {
    if (v == null || isNaN(v)) return '—';
    v = v / shownPer;
    var a = Math.abs(v);
    // as the pages write numbers (wire.Quantities): four significant digits, grouped by thousands from 10,000
    if (a !== 0 && (a >= 1e15 || a < 1e-4)) return v.toExponential(3);
    var s = String(Number(v.toPrecision(4)));
    return Math.abs(Number(s)) >= 1e4 ? s.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : s;
  }

  function rgba(hex, alpha) {
    var n = parseInt(hex.slice(1), 16);
    return 'rgba(' + (n >> 16) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + alpha + ')';
  }

  function yRange(data, log) {
    return function (u) {
      var lo = Infinity, hi = -Infinity;
      var n = data.versions.length, sx = u.scales.x;
      // before the first layout the x scale has no range yet: take every version
      var from = sx.min == null ? 0 : Math.max(0, Math.ceil(sx.min));
      var to = sx.max == null ? n - 1 : Math.min(n - 1, Math.floor(sx.max));
      data.machines.forEach(function (m, k) {
        if (!u.series[k + 1].show) return;
        for (var i = from; i <= to; i++) {
          if (m.min[i] != null) { lo = Math.min(lo, m.min[i]); hi = Math.max(hi, m.max[i]); }
        }
      });
      if (lo > hi) return [log ? 1 : 0, log ? 10 : 1];
      // a log axis shows a ×20 step without flattening the rest: a tenth of a decade either side
      if (log && lo > 0) return [lo / Math.pow(hi / lo, 0.08), hi * Math.pow(hi / lo, 0.08)];
      var pad = (hi - lo) * 0.08 || Math.abs(hi) * 0.05 || 1;
      return [Math.max(lo > 0 ? 0 : -Infinity, lo - pad), hi + pad];
    };
  }

  function drawBands(data) {
    return function (u) {
      var ctx = u.ctx;
      ctx.save();
      ctx.beginPath();
      ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
      ctx.clip();
      data.machines.forEach(function (m, k) {
        if (!u.series[k + 1].show) return;
        ctx.fillStyle = rgba(PALETTE[k % 8], 0.15);
        var run = [];
        for (var i = 0; i <= m.min.length; i++) {
          if (i < m.min.length && m.min[i] != null) { run.push(i); continue; }
          if (run.length) {
            ctx.beginPath();
            run.forEach(function (j, n) {
              var x = u.valToPos(j, 'x', true), y = u.valToPos(m.max[j], 'y', true);
              n ? ctx.lineTo(x, y) : ctx.moveTo(x, y);
            });
            run.slice().reverse().forEach(function (j) { ctx.lineTo(u.valToPos(j, 'x', true), u.valToPos(m.min[j], 'y', true)); });
            ctx.closePath();
            ctx.fill();
            if (run.length === 1) { // a lone version: draw its band as a short bar
              var x = u.valToPos(run[0], 'x', true);
              ctx.fillRect(x - 3, u.valToPos(m.max[run[0]], 'y', true), 6,
                u.valToPos(m.min[run[0]], 'y', true) - u.valToPos(m.max[run[0]], 'y', true));
            }
            run = [];
          }
        }
      });
      ctx.restore();
    };
  }

  function drawSamplesAndMarkers(data) {
    return function (u) {
      var ctx = u.ctx, r = 2 * devicePixelRatio;
      ctx.save();
      ctx.beginPath();
      ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
      ctx.clip();
      data.machines.forEach(function (m, k) {
        if (!u.series[k + 1].show) return;
        ctx.fillStyle = rgba(PALETTE[k % 8], 0.55);
        m.samples.forEach(function (values, i) {
          var x = u.valToPos(i, 'x', true);
          values.forEach(function (v) {
            ctx.beginPath();
            ctx.arc(x, u.valToPos(v, 'y', true), r, 0, 2 * Math.PI);
            ctx.fill();
          });
        });
      });
      (data.markers || []).forEach(function (mk) {
        var i = mk.at != null ? mk.at : data.versions.indexOf(mk.version);
        if (i < 0) return;
        var x = u.valToPos(i, 'x', true);
        ctx.strokeStyle = MARK[mk.kind] || '#8a5a00';
        ctx.fillStyle = ctx.strokeStyle;
        ctx.lineWidth = 2 * devicePixelRatio;
        ctx.setLineDash(mk.kind === 'note' ? [2 * devicePixelRatio, 3 * devicePixelRatio]
          : [6 * devicePixelRatio, 4 * devicePixelRatio]);
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        if (mk.kind === 'note') { // a note's ◆ sits at the bottom, under the steps' labels at the top
          ctx.font = (12 * devicePixelRatio) + 'px system-ui, sans-serif';
          ctx.fillText(GLYPH.note, x + 4 * devicePixelRatio, u.bbox.top + u.bbox.height - 6 * devicePixelRatio);
        }
      });
      ctx.restore();
      labelMarkers(u, data);
    };
  }

  // the version each dashed line marks, as text over the chart: read without pointing at the line, and kept within
  // the chart (near the right edge, on a phone, the label sits left of its line); one label per version and kind
  function labelMarkers(u, data) {
    u.over.querySelectorAll('.chart-step').forEach(function (e) { e.remove(); });
    var seen = {}, placed = 0;
    (data.markers || []).forEach(function (mk) {
      var i = mk.at != null ? mk.at : data.versions.indexOf(mk.version);
      var version = mk.version || data.versions[i];
      // steps are labelled with their version; notes are named in the list under the chart
      if (mk.kind === 'note' || i < 0 || i < u.scales.x.min || i > u.scales.x.max || seen[mk.kind + ' ' + version]) return;
      seen[mk.kind + ' ' + version] = true;
      var label = document.createElement('span');
      label.className = 'chart-step ' + (mk.kind || '');
      label.textContent = (mk.kind === 'improvement' ? '▼ ' : '▲ ') + version;
      label.style.top = (2 + 18 * placed++) + 'px';
      u.over.appendChild(label);
      var x = u.valToPos(i, 'x'), w = label.offsetWidth;
      label.style.left = (x + 4 + w <= u.over.clientWidth ? x + 4 : Math.max(0, x - 4 - w)) + 'px';
    });
  }

  // a chart about one version (a regression's page: data-focus) shows that version's values, else each machine's newest
  function showNewest(u, data) {
    var focus = data.focus != null ? data.versions.indexOf(data.focus) : -1;
    if (focus >= 0) {
      u.setLegend({ idx: focus }, false);
      return;
    }
    var idxs = [data.versions.length - 1];
    data.machines.forEach(function (m) {
      var i = m.median.length - 1;
      while (i > 0 && m.median[i] == null) i--;
      idxs.push(i);
    });
    u.setLegend({ idxs: idxs }, false);
  }

  function xLabel(data, i) {
    if (i == null || i < 0 || i >= data.versions.length) return '—';
    return data.last ? data.versions[i] + ' … ' + data.last[i] : data.versions[i];
  }

  // state: {el, data, log, zoomed, plot, onZoom(from, to), onReset()}
  function build(state) {
    var el = state.el, data = state.data, log = state.log;
    var n = data.versions.length;
    var unit = data.shown ? data.shown.unit : data.unit;
    shownPer = data.shown ? data.shown.per : 1;
    var bucketed = data.bucket > 1;
    var xs = data.versions.map(function (_, i) { return i; });
    var series = [{
      label: bucketed ? 'Versions' : 'Version',
      value: function (u, v) { return v == null ? '—' : xLabel(data, Math.round(v)); }
    }];
    var columns = [xs];
    data.machines.forEach(function (m, k) {
      series.push({
        label: m.name,
        stroke: PALETTE[k % 8],
        width: 2,
        dash: k >= 8 ? [8, 4] : undefined,
        spanGaps: true,
        points: { show: n <= 60, size: 6 },
        value: function (u, v, si, idx) {
          if (v == null || idx == null) return '—';
          return fmt(v) + ' ' + unit + ' (' + fmt(m.min[idx]) + '–' + fmt(m.max[idx]) + ')';
        }
      });
      columns.push(m.median);
    });
    var opts = {
      width: Math.max(280, el.clientWidth),
      height: el.clientWidth < 600 ? 280 : 380,
      series: series,
      scales: { x: { time: false, range: function (u, lo, hi) { return [lo - 0.5, hi + 0.5]; } }, y: log ? { distr: 3, log: 10, range: yRange(data, true) } : { range: yRange(data, false) } },
      axes: [
        {
          space: 60,
          incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
          values: function (u, splits) {
            return splits.map(function (i) { return Number.isInteger(i) && i >= 0 && i < n ? data.versions[i] : ''; });
          },
          // the labels end at their tick, so the newest (at the right edge) is not cut off on a phone
          rotate: 30,
          size: 70
        },
        { label: unit, values: function (u, splits) { return splits.map(fmt); }, size: 70 }
      ],
      // buckets: a drag asks the server for that range instead of stretching the buckets
      cursor: { drag: { x: true, y: false, setScale: !bucketed } },
      legend: { live: true },
      hooks: {
        // away from the chart, the legend shows each machine's newest value instead of dashes
        setCursor: [function (u) { if (u.cursor.idx == null) showNewest(u, data); }],
        drawAxes: [drawBands(data)],
        draw: [drawSamplesAndMarkers(data)],
        setSelect: [function (u) {
          if (!bucketed || u.select.width < 2 || !state.onZoom) return;
          var a = Math.max(0, Math.ceil(u.posToVal(u.select.left, 'x')));
          var b = Math.min(n - 1, Math.floor(u.posToVal(u.select.left + u.select.width, 'x')));
          if (b < a) b = a;
          state.onZoom(data.versions[a], data.last[b]);
        }]
      }
    };
    var plot = new uPlot(opts, columns, el);
    showNewest(plot, data);
    plot.over.addEventListener('dblclick', function () { if (state.zoomed && state.onReset) state.onReset(); });
    var points = 0, samples = 0;
    data.machines.forEach(function (m) {
      m.median.forEach(function (v) { if (v != null) points++; });
      m.samples.forEach(function (s) { samples += s.length; });
    });
    el.setAttribute('data-points', String(points));
    el.setAttribute('data-samples', String(samples));
    el.setAttribute('data-bucket', String(data.bucket || 1));
    el.setAttribute('data-total', String(data.total || n));
    el.setAttribute('data-scale', log ? 'log' : 'linear');
    return plot;
  }

  function extent(data) {
    var lo = Infinity, hi = -Infinity;
    data.machines.forEach(function (m) {
      m.min.forEach(function (v) { if (v != null) lo = Math.min(lo, v); });
      m.max.forEach(function (v) { if (v != null) hi = Math.max(hi, v); });
    });
    return [lo, hi];
  }

  function describe(state) {
    var note = document.querySelector('.chart-buckets');
    if (!note) return;
    var d = state.data;
    note.hidden = !(d.bucket > 1);
    note.textContent = d.bucket > 1 ? ' · each point: about ' + d.bucket + ' versions of ' + d.total +
      ' (median, lowest and highest of their trimmed means), every version once zoomed in' : '';
  }

  function redraw(state) {
    if (state.plot) state.plot.destroy();
    state.plot = build(state);
    describe(state);
  }

  function setUp(el) {
    var toggle = document.getElementById('log-scale');
    var wrap = toggle != null ? (toggle.closest('.log-toggle') || toggle) : null;
    var src = el.getAttribute('data-chart-src');
    var state = { el: el, data: null, log: false, zoomed: false, plot: null };
    function show(data, first) {
      data.focus = el.getAttribute('data-focus');
      state.data = data;
      if (first && toggle != null) {
        // a log scale only when every value is positive; by default when they span more than ×20
        var e = extent(data);
        if (src) {
          wrap.hidden = !(e[0] > 0);
          toggle.checked = e[0] > 0 && e[1] / e[0] > 20;
        }
      }
      state.log = toggle != null && toggle.checked && !wrap.hidden;
      redraw(state);
      document.querySelectorAll('.chart-range [data-last]').forEach(function (button) {
        var last = Number(button.getAttribute('data-last'));
        if (first) button.hidden = last > 0 && last >= (data.total || data.versions.length);
      });
    }
    function fetchRange(query, zoomed, first) {
      el.setAttribute('aria-busy', 'true');
      return fetch(src + query, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
        .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
        .then(function (data) { state.zoomed = zoomed; show(data, first); })
        .catch(function (e) { el.setAttribute('data-error', String(e)); })
        .then(function () { el.removeAttribute('aria-busy'); });
    }
    if (src) {
      state.onZoom = function (from, to) {
        fetchRange('&from=' + encodeURIComponent(from) + '&to=' + encodeURIComponent(to), true, false);
      };
      state.onReset = function () { fetchRange('', false, false); };
      fetchRange('', false, true);
    } else {
      show(JSON.parse(el.getAttribute('data-chart')), true);
    }
    // zoom without a mouse: buttons that show the last N versions
    document.querySelectorAll('.chart-range [data-last]').forEach(function (button) {
      button.addEventListener('click', function () {
        var last = Number(button.getAttribute('data-last'));
        if (src) {
          fetchRange(last > 0 ? '&last=' + last : '', last > 0, false);
        } else {
          var n = state.data.versions.length;
          state.plot.setScale('x', { min: last > 0 ? Math.max(-0.5, n - last - 0.5) : -0.5, max: n - 0.5 });
        }
      });
    });
    if (toggle != null) {
      toggle.addEventListener('change', function () {
        state.log = toggle.checked;
        if (state.data) redraw(state);
      });
    }
    var timer;
    window.addEventListener('resize', function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var w = Math.max(280, el.clientWidth);
        var plot = state.plot;
        if (plot && plot.root.isConnected && Math.abs(w - plot.width) > 4) plot.setSize({ width: w, height: w < 600 ? 280 : 380 });
      }, 100);
    });
  }

  document.querySelectorAll('.chart[data-chart], .chart[data-chart-src]').forEach(setUp);
})();
